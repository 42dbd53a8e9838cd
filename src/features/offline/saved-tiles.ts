import { createStore, del, get, update, type UseStore } from 'idb-keyval'
import { offlineDbs, tileCaches } from '#core/offline/cache-names.ts'
import { storableTile } from '#core/offline/stored-tile.ts'

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
export async function saveTileForArea(url: string, areaId: string, signal: AbortSignal, deps: SaveTileDeps = {}): Promise<number> {
  const cache = await (deps.caches ?? caches).open(tileCaches.saved)
  const now = deps.now ?? Date.now
  const existing = await cache.match(url)
  const etag = existing?.headers.get('ETag')
  const res = await (deps.fetch ?? fetch)(url, { cache: 'no-store', headers: etag ? { 'If-None-Match': etag } : {}, signal })
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
  await update<SavedRef>(url, (ref) => ({ areas: ref?.areas.includes(areaId) ? ref.areas : [...(ref?.areas ?? []), areaId], bytes }), refStore())
  return bytes
}

/** Takes the area off each of its tiles; a tile no other area holds leaves the saved cache. */
export async function releaseArea(areaId: string, urls: Iterable<string>, deps: Pick<SaveTileDeps, 'caches'> = {}): Promise<void> {
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
