import { createStore, del, get, getMany, promisifyRequest, update, type UseStore } from 'idb-keyval'
import { offlineDbs, tileCaches } from '#core/offline/cache-names.ts'
import { storableTile } from '#core/offline/stored-tile.ts'
import {
  etagVersion,
  packEtag,
  packPath,
  PackFormatError,
  readPack,
  tileEtag,
  type PackRequest,
} from '#core/offline/tile-pack.ts'

/**
 * The saved areas' tiles: a cache of their own that the recent-tile LRU never touches, and an index of
 * which areas hold each tile, so overlapping areas share a tile and deleting one area keeps the tiles
 * another still needs.
 */

export type SavedRef = { areas: string[]; bytes: number }

let refs: UseStore | undefined
const refStore = () => (refs ??= createStore(...offlineDbs.savedTiles))

export class TileHttpError extends Error {
  readonly status: number
  constructor(status: number) {
    super(`HTTP ${status}`)
    this.status = status
  }
}

export type SaveTileDeps = { caches?: CacheStorage; fetch?: typeof fetch; now?: () => number }

/**
 * Fetches one tile for the area straight from the server (past the worker's caches, conditional on the
 * ETag it already has, so a refresh of unchanged data costs a 304), stores it in the saved cache and
 * notes the area against it. Resolves with the bytes it takes.
 */
export async function saveTileForArea(
  url: string,
  areaId: string,
  signal: AbortSignal,
  deps: SaveTileDeps = {},
): Promise<number> {
  const cache = await (deps.caches ?? caches).open(tileCaches.saved)
  const now = deps.now ?? Date.now
  const existing = await cache.match(url)
  const etag = existing?.headers.get('ETag')
  const res = await (deps.fetch ?? fetch)(url, {
    cache: 'no-store',
    headers: etag ? { 'If-None-Match': etag } : {},
    signal,
  })
  const known = res.status === 304 && existing ? await get<SavedRef>(url, refStore()) : undefined
  let bytes: number
  if (known) {
    // Unchanged and already kept: nothing to write but the area's claim on it.
    bytes = known.bytes
  } else {
    const fresh = res.status === 304 && existing ? existing : res.status === 200 || res.status === 204 ? res : null
    if (!fresh) throw new TileHttpError(res.status)
    const stored = await storableTile(fresh, now())
    await cache.put(url, stored.response)
    bytes = stored.bytes
  }
  await claim([{ url, bytes }], areaId)
  return bytes
}

/** Notes the area against saved tiles (and each tile's size), all in one transaction. */
function claim(tiles: readonly { url: string; bytes: number }[], areaId: string): Promise<void> {
  if (tiles.length === 0) return Promise.resolve()
  return refStore()('readwrite', (store) => {
    for (const { url, bytes } of tiles) {
      const read = store.get(url)
      read.onsuccess = () => {
        const ref = read.result as SavedRef | undefined
        store.put(
          {
            areas: ref?.areas.includes(areaId) ? ref.areas : [...(ref?.areas ?? []), areaId],
            bytes,
          } satisfies SavedRef,
          url,
        )
      }
    }
    return promisifyRequest(store.transaction)
  })
}

const tileKey = (t: { layer: string; z: number; x: number; y: number }) => `${t.layer}/${t.z}/${t.x}/${t.y}`

/**
 * Fetches a pack of the area's tiles (`urls[i]` is where `pack.tiles[i]` is kept) and stores each tile
 * exactly as saveTileForArea stores a single one: same cache, same URL, body, type and ETag, so the
 * worker and a later single-tile refresh cannot tell them apart. Conditional too: when every tile of
 * the pack is kept from one data version, the pack is asked with that version's ETag and a 304 writes
 * nothing but the area's claims. Tiles are stored as they arrive, each checked against its length and
 * CRC-32, without waiting for one write before reading the next (the link, not the device, sets the
 * pace); the area's claims on them go in one transaction, also for the tiles stored before a pack
 * fails part way (it is then asked again whole). Resolves with the bytes of each tile.
 */
export async function savePackForArea(
  origin: string,
  pack: PackRequest,
  urls: readonly string[],
  areaId: string,
  signal: AbortSignal,
  deps: SaveTileDeps = {},
): Promise<number[]> {
  const cache = await (deps.caches ?? caches).open(tileCaches.saved)
  const now = deps.now ?? Date.now
  const kept = await Promise.all(urls.map((u) => cache.match(u)))
  const versions = new Set(kept.map((r) => etagVersion(r?.headers.get('ETag'))))
  const held = versions.size === 1 ? [...versions][0]! : null
  const res = await (deps.fetch ?? fetch)(origin + packPath(pack), {
    cache: 'no-store',
    headers: held !== null ? { 'If-None-Match': packEtag(held) } : {},
    signal,
  })
  const bytes: number[] = []
  if (res.status === 304 && held !== null) {
    const refs = await getMany<SavedRef>([...urls], refStore())
    for (const [i, ref] of refs.entries()) bytes[i] = ref?.bytes ?? (await storableTile(kept[i]!, now())).bytes
    await claim(
      urls.map((url, i) => ({ url, bytes: bytes[i]! })),
      areaId,
    )
    return bytes
  }
  if (res.status !== 200 || !res.body) throw new TileHttpError(res.status)
  const at = new Map(pack.tiles.map((t, i) => [tileKey(t), i]))
  const writes: Promise<{ url: string; bytes: number }>[] = []
  let broken: { error: unknown } | undefined
  try {
    let version = 0
    for await (const item of readPack(res.body)) {
      if ('entries' in item) {
        version = item.version
        continue
      }
      const i = at.get(tileKey(item))
      if (i === undefined) throw new PackFormatError('Gói ô bản đồ chứa ô không được yêu cầu.')
      // As the server answers the single tile: 200 with the protobuf, or 204 without a body or type.
      const headers: Record<string, string> = { ETag: tileEtag(version, item.layer, item.z, item.x, item.y) }
      if (item.tile) headers['Content-Type'] = 'application/x-protobuf'
      writes.push(
        storableTile(new Response(item.tile, { status: item.tile ? 200 : 204, headers }), now()).then(
          async (stored) => {
            await cache.put(urls[i]!, stored.response)
            bytes[i] = stored.bytes
            return { url: urls[i]!, bytes: stored.bytes }
          },
        ),
      )
    }
  } catch (error) {
    broken = { error }
  }
  const written = await Promise.allSettled(writes)
  await claim(
    written.flatMap((w) => (w.status === 'fulfilled' ? [w.value] : [])),
    areaId,
  )
  // A write that failed (the device's storage full) fails the pack with its own error, before a damaged pack's.
  const unwritten = written.find((w) => w.status === 'rejected')
  if (unwritten) throw unwritten.reason
  if (broken) throw broken.error
  if (!urls.every((_, i) => bytes[i] !== undefined)) throw new PackFormatError('Gói ô bản đồ thiếu ô.')
  return bytes
}

/** Takes the area off each of its tiles; a tile no other area holds leaves the saved cache. */
export async function releaseArea(
  areaId: string,
  urls: Iterable<string>,
  deps: Pick<SaveTileDeps, 'caches'> = {},
): Promise<void> {
  const cache = await (deps.caches ?? caches).open(tileCaches.saved)
  for (const url of urls) {
    const ref = await get<SavedRef>(url, refStore())
    if (!ref) continue
    const areas = ref.areas.filter((a) => a !== areaId)
    if (areas.length > 0) {
      await update<SavedRef>(url, () => ({ ...ref, areas }), refStore())
      continue
    }
    await cache.delete(url)
    await del(url, refStore())
  }
}

export function savedRef(url: string): Promise<SavedRef | undefined> {
  return get<SavedRef>(url, refStore())
}
