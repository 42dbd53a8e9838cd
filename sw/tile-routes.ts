/// <reference lib="webworker" />
import { createStore, get } from 'idb-keyval'
import { registerRoute } from 'workbox-routing'
import { offlineDbs, settingKeys, swMessages, tileCaches, TILE_PATH, TILEJSON_PATH } from '#core/offline/cache-names.ts'
import { idbLruStore } from './lru-store.ts'
import { createTileCache, outsideLayerData, parseTileUrl, recentCapBytes } from './tile-cache.ts'

declare const self: ServiceWorkerGlobalScope

/**
 * Map tiles and TileJSON through the worker. Only the server's own tiles (vector, and raster planning
 * overlays) are cached: a third-party raster basemap (TILE_URL) answers opaquely, and Chromium counts
 * each opaque response as about 7 MB of quota, so those tiles go to the network untouched.
 */
/**
 * TileJSON: the server's (new data dates, new layers) when it answers within a few seconds, else the
 * copy kept from the last answer, so the map still knows its layers offline. Three small entries.
 */
async function tileJsonNetworkFirst(request: Request): Promise<Response> {
  const cache = await caches.open(tileCaches.tileJson)
  try {
    const res = await fetch(request, { signal: AbortSignal.timeout(4000) })
    if (res.ok) await cache.put(request.url, res.clone()).catch(() => undefined)
    return res
  } catch (err) {
    const kept = await cache.match(request.url)
    if (kept) return kept
    throw err
  }
}

export function registerTileRoutes(): void {
  const settings = createStore(...offlineDbs.settings)

  type Extent = { id?: string; minzoom: number; maxzoom: number; bounds: [number, number, number, number] }
  const kept = async (path: string) => {
    const res = await (await caches.open(tileCaches.tileJson)).match(new URL(path, self.location.origin).href)
    return res ? ((await res.json()) as unknown) : undefined
  }
  // A raster overlay's extent is its entry in the kept overlays.json.
  const tileJsonCache = async (layer: string): Promise<Extent | undefined> => {
    if (!layer.startsWith('raster/')) return (await kept(`/tiles/${layer}.json`)) as Extent | undefined
    const list = (await kept('/tiles/overlays.json')) as Extent[] | undefined
    return list?.find((o) => `raster/${o.id}` === layer)
  }

  const tiles = createTileCache({
    caches: self.caches,
    lru: idbLruStore(...offlineDbs.recentTiles),
    fetch: (input, init) => fetch(input, init),
    capBytes: async () => {
      const override = await get<number>(settingKeys.recentTileCap, settings)
      const quota = (await navigator.storage?.estimate?.())?.quota
      return recentCapBytes({ override, quota })
    },
    knownEmpty: async (url) => {
      const t = parseTileUrl(url)
      const tj = t && (await tileJsonCache(t.layer))
      return !!t && !!tj && outsideLayerData(tj, t.z, t.x, t.y)
    },
  })

  registerRoute(
    // A request that asks to skip caches (a saved-area download or refresh) goes to the server as sent.
    ({ url, request }) =>
      url.origin === self.location.origin &&
      TILE_PATH.test(url.pathname) &&
      request.cache !== 'no-store' &&
      request.cache !== 'reload',
    ({ request, event }) => tiles.handle(request, (p) => (event as ExtendableEvent).waitUntil(p)),
  )

  registerRoute(
    ({ url }) => url.origin === self.location.origin && TILEJSON_PATH.test(url.pathname),
    ({ request }) => tileJsonNetworkFirst(request),
  )

  self.addEventListener('message', (event) => {
    const type = (event.data as { type?: string } | null)?.type
    if (type === swMessages.tileSettingsChanged) event.waitUntil(tiles.capChanged())
    else if (type === swMessages.recentTileStats) {
      const port = event.ports[0]
      event.waitUntil(tiles.stats().then((s) => port?.postMessage(s)))
    }
  })
}
