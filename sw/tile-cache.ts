import { tileCaches, TILE_PATH } from '#core/offline/cache-names.ts'
import { ENTRY_OVERHEAD_BYTES } from '#core/offline/estimate.ts'
import { FETCHED_AT, storableTile } from '#core/offline/stored-tile.ts'
import { intersectBbox, tileCorner, type Bbox } from '#core/offline/tile-grid.ts'
import { isQuotaError } from '#core/storage/quota.ts'

/**
 * The service worker's map tile cache, without the worker around it (caches, IndexedDB, fetch and the
 * clock are handed in, so tests run it on stand-ins):
 *
 * - a tile is answered from the saved areas' cache first, then the recent cache, then the network;
 * - a cached tile older than its max-age is revalidated in the background with its ETag (stale while
 *   revalidate), so the map paints at once and still follows new data;
 * - tiles from the network, empty ones (204) included, go into the recent cache, whose total size is
 *   capped: beyond the cap the least recently used tiles go first, saved tiles never;
 * - when the browser refuses a write for lack of quota, the recent cache is dropped (purge on quota
 *   error), never the saved one.
 */

export type CacheLike = {
  match(request: string): Promise<Response | undefined>
  put(request: string, response: Response): Promise<void>
  delete(request: string): Promise<boolean>
  keys(): Promise<readonly { url: string }[]>
}
export type CachesLike = { open(name: string): Promise<CacheLike>; delete(name: string): Promise<boolean> }

/** Size on the device (body plus entry overhead) and last use (ms) of a recent tile. */
export type LruEntry = { bytes: number; at: number }
export type LruStore = {
  entries(): Promise<[string, LruEntry][]>
  set(url: string, entry: LruEntry): Promise<void>
  delMany(urls: string[]): Promise<void>
  clear(): Promise<void>
}

export const DEFAULT_RECENT_CAP = 200 * 1024 * 1024
/** At most this share of the origin's quota goes to recently viewed tiles. */
export const RECENT_QUOTA_SHARE = 0.2
/** The server's tiles say max-age=3600; a cached tile younger than that is used without asking. */
export const TILE_MAX_AGE_MS = 3600_000
/** Eviction frees a little more than needed, so the next tiles do not each trigger another pass. */
const EVICT_TO = 0.9

/** The cap: the user's choice when set, else 200 MB or the quota share, whichever is smaller. */
export function recentCapBytes(opts: { override?: number | null; quota?: number | null }): number {
  if (opts.override !== undefined && opts.override !== null && opts.override > 0) return opts.override
  const share = opts.quota ? Math.floor(opts.quota * RECENT_QUOTA_SHARE) : Infinity
  return Math.min(DEFAULT_RECENT_CAP, share)
}

/** Layer, zoom and tile of a tile URL, or null for anything else. */
export function parseTileUrl(url: string): { layer: string; z: number; x: number; y: number } | null {
  const m = TILE_PATH.exec(new URL(url).pathname)
  return m ? { layer: m[1]!, z: Number(m[2]), x: Number(m[3]), y: Number(m[4]) } : null
}

/**
 * Whether the layer's TileJSON says it has nothing at this tile (zoom out of range, or outside its
 * bounds): the server would answer 204, so offline the worker can too and the map does not wait.
 */
export function outsideLayerData(
  tj: { minzoom: number; maxzoom: number; bounds: Bbox },
  z: number,
  x: number,
  y: number,
): boolean {
  if (z < tj.minzoom || z > tj.maxzoom) return true
  const nw = tileCorner(z, x, y)
  const se = tileCorner(z, x + 1, y + 1)
  return intersectBbox([nw.lng, se.lat, se.lng, nw.lat], tj.bounds) === null
}

export type TileCacheDeps = {
  caches: CachesLike
  lru: LruStore
  fetch: (input: Request | string, init?: RequestInit) => Promise<Response>
  capBytes: () => Promise<number>
  now?: () => number
  maxAgeMs?: number
  /** True when the tile surely has no data (see outsideLayerData); asked only when the network fails. */
  knownEmpty?: (url: string) => Promise<boolean>
}

type WaitUntil = (p: Promise<unknown>) => void

export function createTileCache(deps: TileCacheDeps) {
  const now = deps.now ?? Date.now
  const maxAge = deps.maxAgeMs ?? TILE_MAX_AGE_MS
  const index = new Map<string, LruEntry>()
  let total = 0
  let loaded = false
  let cap: number | null = null
  const revalidating = new Set<string>()

  // Index updates run one after another: two tiles arriving together must not both miss the cap.
  let queue: Promise<unknown> = Promise.resolve()
  function serial<T>(op: () => Promise<T>): Promise<T> {
    const run = queue.then(op, op)
    queue = run.catch(() => undefined)
    return run
  }

  const recent = () => deps.caches.open(tileCaches.recent)
  const saved = () => deps.caches.open(tileCaches.saved)

  async function load() {
    if (loaded) return
    loaded = true
    for (const [url, e] of await deps.lru.entries()) {
      index.set(url, e)
      total += e.bytes
    }
    // Tiles the index lost (storage cleared in part) would never be evicted: give them a size and an old date.
    const cache = await recent()
    for (const req of await cache.keys()) {
      if (index.has(req.url)) continue
      const res = await cache.match(req.url)
      const bytes = (res ? (await res.arrayBuffer()).byteLength : 0) + ENTRY_OVERHEAD_BYTES
      const entry = { bytes, at: 0 }
      index.set(req.url, entry)
      total += bytes
      await deps.lru.set(req.url, entry)
    }
  }

  async function currentCap(): Promise<number> {
    cap ??= await deps.capBytes()
    return cap
  }

  async function evictTo(limit: number) {
    if (total <= limit) return
    const victims: string[] = []
    const oldestFirst = [...index.entries()].sort((a, b) => a[1].at - b[1].at)
    const cache = await recent()
    for (const [url, e] of oldestFirst) {
      if (total <= limit * EVICT_TO) break
      victims.push(url)
      index.delete(url)
      total -= e.bytes
      await cache.delete(url)
    }
    await deps.lru.delMany(victims)
  }

  /** Drops the whole recent cache (the browser refused a write): saved tiles are untouched. */
  function purge() {
    return serial(async () => {
      await deps.caches.delete(tileCaches.recent)
      await deps.lru.clear()
      index.clear()
      total = 0
    })
  }

  function record(url: string, bytes: number) {
    return serial(async () => {
      await load()
      const old = index.get(url)
      const entry = { bytes, at: now() }
      index.set(url, entry)
      total += bytes - (old?.bytes ?? 0)
      await deps.lru.set(url, entry)
      await evictTo(await currentCap())
    })
  }

  function touch(url: string) {
    return serial(async () => {
      await load()
      const e = index.get(url)
      if (!e) return
      e.at = now()
      await deps.lru.set(url, e)
    })
  }

  async function putRecent(url: string, res: Response): Promise<void> {
    const { response, bytes } = await storableTile(res, now())
    try {
      await (await recent()).put(url, response)
    } catch (err) {
      if (isQuotaError(err)) return void (await purge())
      throw err
    }
    await record(url, bytes)
  }

  async function putSaved(url: string, res: Response): Promise<void> {
    const cache = await saved()
    // The area may have been deleted meanwhile; a tile put back now would belong to nobody.
    if (!(await cache.match(url))) return
    const { response } = await storableTile(res, now())
    await cache.put(url, response)
  }

  async function revalidate(url: string, cached: Response, into: 'recent' | 'saved') {
    const fetchedAt = Number(cached.headers.get(FETCHED_AT) ?? 0)
    if (now() - fetchedAt < maxAge || revalidating.has(url)) return
    revalidating.add(url)
    try {
      const etag = cached.headers.get('ETag')
      // no-store: the browser's HTTP cache must not answer for the server, and a 304 comes back to us as is.
      const res = await deps.fetch(url, { headers: etag ? { 'If-None-Match': etag } : {}, cache: 'no-store' })
      const fresh = res.status === 304 ? cached.clone() : res.status === 200 || res.status === 204 ? res : null
      if (!fresh) return
      if (into === 'saved') await putSaved(url, fresh)
      else await putRecent(url, fresh)
    } catch {
      // Offline or the server is away: the cached tile stays as it is.
    } finally {
      revalidating.delete(url)
    }
  }

  return {
    /** Answers one tile request; background work (storing, revalidating, the index) goes to waitUntil. */
    async handle(request: Request, waitUntil: WaitUntil): Promise<Response> {
      const url = request.url
      const fromSaved = await (await saved()).match(url)
      if (fromSaved) {
        waitUntil(revalidate(url, fromSaved.clone(), 'saved'))
        return fromSaved
      }
      const fromRecent = await (await recent()).match(url)
      if (fromRecent) {
        waitUntil(touch(url).then(() => revalidate(url, fromRecent.clone(), 'recent')))
        return fromRecent
      }
      let res: Response
      try {
        res = await deps.fetch(request)
      } catch (err) {
        if (await deps.knownEmpty?.(url).catch(() => false)) return new Response(null, { status: 204 })
        throw err
      }
      if (res.status === 200 || res.status === 204) waitUntil(putRecent(url, res.clone()))
      return res
    },
    /** Re-reads the cap (the user changed it) and evicts down to it. */
    capChanged(): Promise<void> {
      cap = null
      return serial(async () => {
        await load()
        await evictTo(await currentCap())
      })
    },
    stats(): Promise<{ bytes: number; count: number; capBytes: number }> {
      return serial(async () => {
        await load()
        return { bytes: total, count: index.size, capBytes: await currentCap() }
      })
    },
    purge,
  }
}
export type TileCache = ReturnType<typeof createTileCache>
