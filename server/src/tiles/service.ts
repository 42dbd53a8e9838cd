import { promisify } from 'node:util'
import { gzip, gzipSync } from 'node:zlib'
import type { TileLayerId } from '#core/contract/tiles.ts'
import type { Queryable } from '../db/database.ts'
import { ByteLru } from './cache.ts'
import { tileSets } from './layers.ts'
import type { PmtilesBasemap } from './pmtiles-basemap.ts'
import { renderTile, type TileEncoder } from './render.ts'
import { dataVersionWatch, readDataVersion } from './version.ts'

const gzipAsync = promisify(gzip)

/** A rendered tile and its gzip form, or null for an empty tile. */
export type Tile = { pbf: Uint8Array<ArrayBuffer>; gzip: Uint8Array<ArrayBuffer> } | null

export type TileService = {
  /**
   * The data version: while this process hears every bump (dataVersionWatch), read once and again after
   * each; otherwise read from the database at most once per `versionMaxAgeMs` of `now()`.
   */
  version(): Promise<number>
  tile(version: number, layer: TileLayerId, z: number, x: number, y: number): Promise<Tile>
}

export type TileServiceOptions = { cacheBytes?: number; versionMaxAgeMs?: number; encoder?: TileEncoder; basemap?: PmtilesBasemap | undefined }

// Most tiles are a few kB: compressing them in place takes a fraction of a millisecond, while the hop to
// zlib's thread pool added about 2 ms to every cold tile on the bench.
const GZIP_SYNC_MAX = 64 * 1024

// Measured on the demo tiles (bench/tile-encode.ts, z14–18, CPU per tile): level 5 writes the same bytes
// as zlib's default 6 (42.3 % vs 42.4 % of the protobuf) for about a quarter less CPU (0.14 vs 0.18 ms);
// 9 gains nothing more. Level 4 would save another 0.03 ms but send 2–3 % more bytes, and tiles go over
// slow mobile links (at 1.6 Mbit/s those 50-odd bytes take longer than the CPU saved) and fill the
// service worker's cache, so the bytes win there.
const GZIP_LEVEL = 5

// What a cache entry costs besides its bytes (key, objects, map slot); keeps empty tiles from being free.
const ENTRY_OVERHEAD = 200

/**
 * Tiles from the database through an in-memory LRU keyed by data version. The cache only saves work:
 * a new version empties it, and several server processes each keep their own, each told of a new
 * version the moment it is committed when it watches the database (PostgreSQL).
 */
export function createTileService(db: Queryable, now: () => Date, opts: TileServiceOptions = {}): TileService {
  const maxAge = opts.versionMaxAgeMs ?? 1000
  const cache = new ByteLru<Tile>(opts.cacheBytes ?? 64 * 1024 * 1024)
  const rendering = new Map<string, Promise<Tile>>()
  const watch = dataVersionWatch(db)
  let known: { version: number; at: number } | undefined
  let reading: Promise<number> | undefined
  // A read begun before a bump was announced may still bring back the old version: it must not be kept.
  let bumps = 0
  watch.subscribe(() => {
    bumps++
    known = undefined
    reading = undefined
    cache.clear()
  })

  async function version(): Promise<number> {
    const t = now().getTime()
    if (known && (watch.live() || (t >= known.at && t - known.at < maxAge))) return known.version
    if (reading) return reading
    const seen = bumps
    const read = readDataVersion(db)
      .then((v) => {
        if (known && known.version !== v) cache.clear()
        if (seen === bumps) known = { version: v, at: t }
        return v
      })
      .finally(() => {
        if (reading === read) reading = undefined
      })
    reading = read
    return read
  }

  async function render(version: number, key: string, layer: TileLayerId, z: number, x: number, y: number): Promise<Tile> {
    // BASEMAP_PMTILES feeds the basemap from its archive; the URL, caching and packs stay the same.
    const pbf = layer === 'basemap' && opts.basemap ? await opts.basemap.tile(z, x, y) : await renderTile(db, tileSets[layer], z, x, y, opts.encoder)
    const tile = pbf ? { pbf, gzip: new Uint8Array(pbf.length <= GZIP_SYNC_MAX ? gzipSync(pbf, { level: GZIP_LEVEL }) : await gzipAsync(pbf, { level: GZIP_LEVEL })) } : null
    if (known?.version === version) cache.set(key, tile, ENTRY_OVERHEAD + (tile ? tile.pbf.length + tile.gzip.length : 0))
    return tile
  }

  function tile(version: number, layer: TileLayerId, z: number, x: number, y: number): Promise<Tile> {
    const key = `${version}/${layer}/${z}/${x}/${y}`
    const hit = cache.get(key)
    if (hit !== undefined) return Promise.resolve(hit)
    // Concurrent requests for one tile (a page of map tiles, many users) share one rendering.
    let pending = rendering.get(key)
    if (!pending) {
      pending = render(version, key, layer, z, x, y).finally(() => rendering.delete(key))
      rendering.set(key, pending)
    }
    return pending
  }

  return { version, tile }
}
