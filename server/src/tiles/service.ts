import { promisify } from 'node:util'
import { gunzipSync, gzip, gzipSync } from 'node:zlib'
import type { TileLayerId } from '#core/contract/tiles.ts'
import type { TileRange } from '#core/offline/tile-grid.ts'
import type { Queryable } from '../db/database.ts'
import { ByteLru } from './cache.ts'
import { tileSets } from './layers.ts'
import type { PmtilesBasemap } from './pmtiles-basemap.ts'
import { renderTile, type TileEncoder } from './render.ts'
import { createRowBlocks } from './row-blocks.ts'
import { storedKey, type TileStore } from './store.ts'
import { dataVersionWatch, readDataVersion } from './version.ts'

const gzipAsync = promisify(gzip)

/**
 * A tile as sent: its protobuf as one gzip member, which almost every client accepts; the protobuf itself is
 * unpacked from it for the others when first asked for. Null for an empty tile.
 */
export type Tile = { readonly gzip: Uint8Array<ArrayBuffer>; readonly pbf: Uint8Array<ArrayBuffer> } | null

function gzipTile(gz: Uint8Array<ArrayBuffer>): NonNullable<Tile> {
  let pbf: Uint8Array<ArrayBuffer> | undefined
  return {
    gzip: gz,
    get pbf() {
      return (pbf ??= new Uint8Array(gunzipSync(gz)))
    },
  }
}

export type TileService = {
  /**
   * The data version: while this process hears every bump (dataVersionWatch), read once and again after
   * each; otherwise read from the database at most once per `versionMaxAgeMs` of `now()`.
   */
  version(): Promise<number>
  tile(version: number, layer: TileLayerId, z: number, x: number, y: number): Promise<Tile>
  /**
   * Every tile of a rectangle of one layer at one zoom, row by row (y, then x). The tiles neither cached
   * nor being rendered are rendered together: one statement for the rectangle around them.
   */
  tiles(version: number, layer: TileLayerId, range: TileRange): Promise<Tile[]>
}

export type TileServiceOptions = {
  cacheBytes?: number
  /** Bound of the rows kept to cut deeper zooms' tiles from (row-blocks.ts). */
  rowCacheBytes?: number
  versionMaxAgeMs?: number
  encoder?: TileEncoder
  basemap?: PmtilesBasemap | undefined
  /** Tiles rendered ahead (store.ts): read before rendering, and what is rendered is written there too. */
  store?: TileStore | undefined
}

// Most tiles are a few kB: compressing them in place costs less than the hop to zlib's thread pool
// (docs/performance.md, "Tiles").
const GZIP_SYNC_MAX = 64 * 1024

// Level 5 writes the same bytes as zlib's default 6 for less CPU, and 9 gains nothing more; level 4 saves a
// little more CPU but sends more bytes, and tiles go over slow mobile links (where those bytes take longer
// than the CPU saved) and fill the service worker's cache, so the bytes win there. Measured on the demo
// tiles: docs/performance.md, "Tiles".
const GZIP_LEVEL = 5

// What a cache entry costs besides its bytes (key, objects, map slot); keeps empty tiles from being free.
const ENTRY_OVERHEAD = 200

const tileKey = (version: number, layer: TileLayerId, z: number, x: number, y: number) =>
  `${version}/${layer}/${z}/${x}/${y}`

/** The gzip member of a tile's protobuf, at GZIP_LEVEL; in place unless large. */
export async function gzipped(pbf: Uint8Array<ArrayBuffer>): Promise<Uint8Array<ArrayBuffer>> {
  return new Uint8Array(
    pbf.length <= GZIP_SYNC_MAX ? gzipSync(pbf, { level: GZIP_LEVEL }) : await gzipAsync(pbf, { level: GZIP_LEVEL }),
  )
}

/** The smallest rectangle holding the tiles. */
export function around(z: number, tiles: readonly { x: number; y: number }[]): TileRange {
  return {
    z,
    minX: Math.min(...tiles.map((t) => t.x)),
    maxX: Math.max(...tiles.map((t) => t.x)),
    minY: Math.min(...tiles.map((t) => t.y)),
    maxY: Math.max(...tiles.map((t) => t.y)),
  }
}

/**
 * Tiles from the database through an in-memory LRU keyed by data version. The cache only saves work:
 * a new version empties it, and several server processes each keep their own, each told of a new
 * version the moment it is committed when it watches the database (PostgreSQL).
 */
export function createTileService(db: Queryable, now: () => Date, opts: TileServiceOptions = {}): TileService {
  const maxAge = opts.versionMaxAgeMs ?? 1000
  const cache = new ByteLru<Tile>(opts.cacheBytes ?? 64 * 1024 * 1024)
  const rendering = new Map<string, Promise<Tile>>()
  const blocks = createRowBlocks(db, opts.rowCacheBytes ?? 32 * 1024 * 1024)
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
    blocks.clear()
  })

  async function version(): Promise<number> {
    const t = now().getTime()
    if (known && (watch.live() || (t >= known.at && t - known.at < maxAge))) return known.version
    if (reading) return reading
    const seen = bumps
    const read = readDataVersion(db)
      .then((v) => {
        if (known && known.version !== v) {
          cache.clear()
          blocks.clear()
        }
        if (seen === bumps) known = { version: v, at: t }
        return v
      })
      .finally(() => {
        if (reading === read) reading = undefined
      })
    reading = read
    return read
  }

  // BASEMAP_PMTILES feeds the basemap from its archive; the URL, caching and packs stay the same, and the
  // archive is read as fast as the store would be, so its tiles are not stored.
  const stored = (layer: TileLayerId) => (layer === 'basemap' && opts.basemap ? undefined : opts.store)

  async function rendered(
    version: number,
    layer: TileLayerId,
    z: number,
    tiles: readonly { x: number; y: number }[],
    keep: boolean,
  ): Promise<Tile[]> {
    const basemap = layer === 'basemap' ? opts.basemap : undefined
    const pbfs: (Uint8Array<ArrayBuffer> | null)[] = []
    if (basemap) for (const t of tiles) pbfs.push(await basemap.tile(z, t.x, t.y))
    else if (opts.encoder === 'native')
      for (const t of tiles) pbfs.push(await renderTile(db, tileSets[layer], z, t.x, t.y, 'native'))
    else pbfs.push(...(await blocks.render(version, layer, z, tiles, keep)))
    return Promise.all(pbfs.map(async (pbf) => (pbf ? gzipTile(await gzipped(pbf)) : null)))
  }

  /** The tiles from the store where it has them, the others rendered (and then stored). */
  async function render(
    version: number,
    layer: TileLayerId,
    z: number,
    tiles: readonly { x: number; y: number }[],
    keep: boolean,
  ): Promise<Tile[]> {
    const store = stored(layer)
    const out: (Tile | undefined)[] = new Array<Tile | undefined>(tiles.length)
    let missing = tiles.map((_, i) => i)
    if (store && tiles.length === 1) {
      const gz = await store.readTile(version, layer, z, tiles[0]!.x, tiles[0]!.y)
      if (gz !== undefined) {
        out[0] = gz === null ? null : gzipTile(new Uint8Array(gz))
        missing = []
      }
    } else if (store) {
      const found = await store.read(version, layer, around(z, tiles))
      missing = missing.filter((i) => {
        const gz = found.get(storedKey(tiles[i]!.x, tiles[i]!.y))
        if (gz === undefined) return true
        out[i] = gz === null ? null : gzipTile(new Uint8Array(gz))
        return false
      })
    }
    if (missing.length > 0) {
      const fresh = await rendered(
        version,
        layer,
        z,
        missing.map((i) => tiles[i]!),
        keep,
      )
      missing.forEach((i, k) => (out[i] = fresh[k]!))
      // The store only saves work: a tile it failed to keep is rendered again when next asked for.
      store
        ?.write(
          version,
          layer,
          z,
          missing.map((i, k) => ({ ...tiles[i]!, gzip: fresh[k]?.gzip ?? null })),
        )
        .catch(() => {})
    }
    if (known?.version === version)
      tiles.forEach((t, i) =>
        cache.set(tileKey(version, layer, z, t.x, t.y), out[i]!, ENTRY_OVERHEAD + (out[i]?.gzip.length ?? 0)),
      )
    return out as Tile[]
  }

  /** `keep`: tiles not cached are read as whole blocks of rows, kept for deeper zooms (packs); else alone (a map's tile). */
  function get(version: number, layer: TileLayerId, r: TileRange, keep: boolean): Promise<Tile[]> {
    const out: (Tile | Promise<Tile>)[] = []
    const missing: { at: number; x: number; y: number; key: string }[] = []
    for (let y = r.minY; y <= r.maxY; y++) {
      for (let x = r.minX; x <= r.maxX; x++) {
        const key = tileKey(version, layer, r.z, x, y)
        const hit = cache.get(key)
        // Concurrent requests for one tile (a page of map tiles, many users, overlapping packs) share one rendering.
        const have = hit !== undefined ? hit : rendering.get(key)
        if (have === undefined) missing.push({ at: out.length, x, y, key })
        // A missing tile's place is filled with its rendering below.
        out.push(have ?? null)
      }
    }
    if (missing.length > 0) {
      const rendered = render(version, layer, r.z, missing, keep)
      missing.forEach((m, k) => {
        const one = rendered.then((ts) => ts[k]!).finally(() => rendering.delete(m.key))
        rendering.set(m.key, one)
        out[m.at] = one
      })
    }
    return Promise.all(out)
  }

  async function tile(version: number, layer: TileLayerId, z: number, x: number, y: number): Promise<Tile> {
    const [one] = await get(version, layer, { z, minX: x, maxX: x, minY: y, maxY: y }, false)
    return one!
  }

  const tiles = (version: number, layer: TileLayerId, r: TileRange) => get(version, layer, r, true)

  return { version, tile, tiles }
}
