import { describe, expect, it, vi } from 'vitest'
import { ENTRY_OVERHEAD_BYTES } from '#core/offline/estimate.ts'
import { tileCaches } from '#core/offline/cache-names.ts'
import { idbLruStore } from './lru-store.ts'
import { FETCHED_AT } from '#core/offline/stored-tile.ts'
import {
  createTileCache,
  DEFAULT_RECENT_CAP,
  outsideLayerData,
  parseTileUrl,
  recentCapBytes,
  type CacheLike,
  type CachesLike,
  type TileCacheDeps,
} from './tile-cache.ts'

type Stored = { body: ArrayBuffer | null; status: number; headers: [string, string][] }

/** Cache Storage on Maps; every match hands out a new Response, as the real one does. */
class FakeCaches implements CachesLike {
  stores = new Map<string, Map<string, Stored>>()
  failPut: ((name: string) => unknown) | null = null
  async open(name: string): Promise<CacheLike> {
    const map = this.stores.get(name) ?? new Map<string, Stored>()
    this.stores.set(name, map)
    return {
      match: async (url) => {
        const s = map.get(url)
        return s ? new Response(s.body, { status: s.status, headers: s.headers }) : undefined
      },
      put: async (url, res) => {
        const err = this.failPut?.(name)
        if (err) throw err
        map.set(url, {
          body: res.status === 204 ? null : await res.arrayBuffer(),
          status: res.status,
          headers: [...res.headers],
        })
      },
      delete: async (url) => map.delete(url),
      keys: async () => [...map.keys()].map((url) => ({ url })),
    }
  }
  async delete(name: string) {
    return this.stores.delete(name)
  }
  urls(name: string): string[] {
    return [...(this.stores.get(name)?.keys() ?? [])]
  }
}

const url = (x: number, layer = 'basemap') => `https://app.test/tiles/${layer}/16/${x}/100.pbf`
const KB = 1024
const tileBody = (bytes: number) => new Uint8Array(bytes).fill(7)

let dbSeq = 0
function setup(
  opts: {
    cap?: number | (() => number)
    server?: (url: string, init?: RequestInit) => Response | Promise<Response>
    knownEmpty?: TileCacheDeps['knownEmpty']
  } = {},
) {
  const caches = new FakeCaches()
  let clock = 1_000_000
  const lru = idbLruStore(`lru-test-${++dbSeq}`, 'entries')
  const requests: { url: string; init?: RequestInit }[] = []
  const fetch = vi.fn(async (input: Request | string, init?: RequestInit) => {
    const u = typeof input === 'string' ? input : input.url
    requests.push({ url: u, init })
    if (opts.server) return opts.server(u, init)
    return new Response(tileBody(3 * KB), {
      status: 200,
      headers: { 'Content-Type': 'application/x-protobuf', ETag: `W/"v1-${u}"` },
    })
  })
  const deps: TileCacheDeps = {
    caches,
    lru,
    fetch,
    capBytes: async () => (typeof opts.cap === 'function' ? opts.cap() : (opts.cap ?? DEFAULT_RECENT_CAP)),
    now: () => clock,
    knownEmpty: opts.knownEmpty,
  }
  const pending: Promise<unknown>[] = []
  let cache = createTileCache(deps)
  const get = async (u: string) => {
    clock += 1000
    const res = await cache.handle(new Request(u), (p) => void pending.push(p))
    await Promise.all(pending.splice(0))
    return res
  }
  return {
    caches,
    requests,
    get,
    advance: (ms: number) => (clock += ms),
    cache: () => cache,
    /** The worker stopped and started again: a new instance on the same caches and IndexedDB. */
    restart: () => (cache = createTileCache(deps)),
  }
}

describe('service worker tile cache', () => {
  it('answers from the saved areas first, then the recent cache, then the network', async () => {
    const t = setup()
    const saved = await t.caches.open(tileCaches.saved)
    await saved.put(url(1), new Response('saved', { headers: { [FETCHED_AT]: String(Date.now() * 2) } }))
    expect(await (await t.get(url(1))).text()).toBe('saved')
    expect(t.requests).toHaveLength(0)

    expect((await t.get(url(2))).status).toBe(200)
    expect(t.requests.map((r) => r.url)).toEqual([url(2)])
    expect(t.caches.urls(tileCaches.recent)).toEqual([url(2)])
    expect(t.caches.urls(tileCaches.saved)).toEqual([url(1)])

    expect((await (await t.get(url(2))).arrayBuffer()).byteLength).toBe(3 * KB)
    expect(t.requests).toHaveLength(1)
  })

  it('remembers an empty tile (204) so it answers offline without asking again', async () => {
    let online = true
    const t = setup({
      server: () => {
        if (!online) throw new TypeError('Failed to fetch')
        return new Response(null, { status: 204, headers: { ETag: 'W/"v1-empty"' } })
      },
    })
    expect((await t.get(url(5))).status).toBe(204)
    online = false
    const again = await t.get(url(5))
    expect(again.status).toBe(204)
    expect(t.requests).toHaveLength(1)
  })

  it('answers 204 offline for a tile its layer has no data for, and fails for one it should have', async () => {
    const t = setup({
      server: () => {
        throw new TypeError('Failed to fetch')
      },
      knownEmpty: async (u) => u.includes('/9/'),
    })
    expect((await t.get(url(9))).status).toBe(204)
    await expect(t.get(url(8))).rejects.toThrow('Failed to fetch')
  })

  it('evicts the least recently used tiles beyond the cap and never a saved tile', async () => {
    const per = 3 * KB + ENTRY_OVERHEAD_BYTES
    const t = setup({ cap: 4 * per })
    const saved = await t.caches.open(tileCaches.saved)
    await saved.put(url(100), new Response('saved tile', { headers: { [FETCHED_AT]: String(Date.now() * 2) } }))
    for (const x of [1, 2, 3, 4]) await t.get(url(x))
    // Tile 1 is used again, so tile 2 is now the least recently used.
    await t.get(url(1))
    await t.get(url(100))
    await t.get(url(5))
    const kept = t.caches.urls(tileCaches.recent).sort()
    expect(kept).not.toContain(url(2))
    expect(kept).toContain(url(1))
    expect(kept).toContain(url(5))
    expect((await t.cache().stats()).bytes).toBeLessThanOrEqual(4 * per)
    expect(t.caches.urls(tileCaches.saved)).toEqual([url(100)])
  })

  it('keeps sizes and last uses in IndexedDB, so eviction order survives the worker restarting', async () => {
    const per = 3 * KB + ENTRY_OVERHEAD_BYTES
    // Eviction frees down to 90 % of the cap: with room for 3.5 tiles, one tile goes per new one.
    const t = setup({ cap: 3.5 * per })
    for (const x of [1, 2, 3]) await t.get(url(x))
    await t.get(url(1))
    t.restart()
    expect(await t.cache().stats()).toMatchObject({ count: 3, bytes: 3 * per })
    await t.get(url(4))
    expect(t.caches.urls(tileCaches.recent).sort()).toEqual([url(1), url(3), url(4)].sort())
  })

  it('evicts down to a smaller cap as soon as the user lowers it', async () => {
    const per = 3 * KB + ENTRY_OVERHEAD_BYTES
    let cap = 10 * per
    const t = setup({ cap: () => cap })
    for (const x of [1, 2, 3, 4, 5, 6]) await t.get(url(x))
    expect(t.caches.urls(tileCaches.recent)).toHaveLength(6)
    cap = 2 * per
    await t.cache().capChanged()
    expect(t.caches.urls(tileCaches.recent).sort()).toEqual([url(6)])
    expect(await t.cache().stats()).toMatchObject({ count: 1, capBytes: 2 * per })
  })

  it('serves a stale tile at once and revalidates it in the background with its ETag', async () => {
    let version = 'v1'
    const t = setup({
      server: (_u, init) => {
        const inm = new Headers(init?.headers).get('If-None-Match')
        if (inm === `W/"${version}"`) return new Response(null, { status: 304 })
        return new Response(version, { headers: { ETag: `W/"${version}"` } })
      },
    })
    expect(await (await t.get(url(1))).text()).toBe('v1')
    t.advance(2 * 3600_000)
    // Unchanged on the server: 304, the cached body stays and counts as fresh again.
    expect(await (await t.get(url(1))).text()).toBe('v1')
    expect(new Headers(t.requests[1]!.init?.headers).get('If-None-Match')).toBe('W/"v1"')
    expect(t.requests[1]!.init?.cache).toBe('no-store')
    expect(await (await t.get(url(1))).text()).toBe('v1')
    expect(t.requests).toHaveLength(2)
    // Changed: the old tile is still shown this once, the new one from then on.
    version = 'v2'
    t.advance(2 * 3600_000)
    expect(await (await t.get(url(1))).text()).toBe('v1')
    expect(await (await t.get(url(1))).text()).toBe('v2')
  })

  it('drops the recent cache, never the saved one, when the browser refuses a write for lack of space', async () => {
    const t = setup()
    const saved = await t.caches.open(tileCaches.saved)
    await saved.put(url(100), new Response('saved', { headers: { [FETCHED_AT]: String(Date.now() * 2) } }))
    await t.get(url(1))
    t.caches.failPut = (name) => (name === tileCaches.recent ? new DOMException('full', 'QuotaExceededError') : null)
    expect((await t.get(url(2))).status).toBe(200)
    expect(t.caches.urls(tileCaches.recent)).toEqual([])
    expect(await t.cache().stats()).toMatchObject({ bytes: 0, count: 0 })
    expect(t.caches.urls(tileCaches.saved)).toEqual([url(100)])
  })
})

describe('recent tile cap and empty tiles', () => {
  it('takes 200 MB or a fifth of the quota, whichever is smaller, unless the user chose a cap', () => {
    expect(recentCapBytes({ quota: 10 * 1024 ** 3 })).toBe(200 * 1024 ** 2)
    expect(recentCapBytes({ quota: 500 * 1024 ** 2 })).toBe(100 * 1024 ** 2)
    expect(recentCapBytes({ quota: null })).toBe(DEFAULT_RECENT_CAP)
    expect(recentCapBytes({ quota: 10 * 1024 ** 3, override: 300_000 })).toBe(300_000)
  })

  it('knows a tile outside the layer zooms or bounds is empty', () => {
    const tj = { minzoom: 16, maxzoom: 20, bounds: [106.69, 10.79, 106.71, 10.8] as [number, number, number, number] }
    expect(outsideLayerData(tj, 15, 26095, 15395)).toBe(true)
    expect(outsideLayerData(tj, 16, 52190, 30790)).toBe(false)
    expect(outsideLayerData(tj, 16, 52100, 30790)).toBe(true)
  })
})

describe('tile URLs the worker caches', () => {
  it('reads vector tiles and raster overlay tiles (PNG and WebP) as layer, z, x, y, and leaves other images alone', () => {
    expect(parseTileUrl('https://qh.example.vn/tiles/parcels/17/104000/60000.pbf')).toEqual({
      layer: 'parcels',
      z: 17,
      x: 104000,
      y: 60000,
    })
    expect(parseTileUrl('https://qh.example.vn/tiles/raster/overlay-qhpk_1.2/17/104000/60000.png')).toEqual({
      layer: 'raster/overlay-qhpk_1.2',
      z: 17,
      x: 104000,
      y: 60000,
    })
    expect(parseTileUrl('https://qh.example.vn/tiles/raster/a/3/1/2.webp')).toEqual({
      layer: 'raster/a',
      z: 3,
      x: 1,
      y: 2,
    })
    expect(parseTileUrl('https://qh.example.vn/tiles/raster/a/b/3/1/2.png')).toBeNull()
    expect(parseTileUrl('https://qh.example.vn/uploads/a/3/1/2.png')).toBeNull()
  })
})
