import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import type { Page } from 'playwright-core'
import { launch, mapReady, paintedPixels, phone, startApp, type RunningApp } from './harness.ts'

/**
 * Watches the page from its first frame: the first OpenLayers viewport seen, whether the boot shell held
 * it then (the app not there yet), and how many frames it was missing from the page after it appeared.
 */
function watchViewports() {
  type Watch = { first: Element | null; firstInBoot: boolean; missing: number }
  const w: Watch = { first: null, firstInBoot: false, missing: 0 }
  ;(window as unknown as { __viewports: Watch }).__viewports = w
  const frame = () => {
    const viewport = document.querySelector('.ol-viewport')
    if (viewport && !w.first) {
      w.first = viewport
      w.firstInBoot = viewport.closest('.boot') !== null && document.querySelector('[data-testid=map]') === null
    }
    if (w.first && !w.first.isConnected) w.missing += 1
    requestAnimationFrame(frame)
  }
  requestAnimationFrame(frame)
}

type Watched = { firstInBoot: boolean; missing: number; sameInView: boolean; viewports: number }
const watched = (page: Page): Promise<Watched> =>
  page.evaluate(() => {
    const w = (window as unknown as { __viewports: { first: Element | null; firstInBoot: boolean; missing: number } })
      .__viewports
    return {
      firstInBoot: w.firstInBoot,
      missing: w.missing,
      sameInView: w.first !== null && document.querySelector('[data-testid=map] .ol-viewport') === w.first,
      viewports: document.querySelectorAll('.ol-viewport').length,
    }
  })

describe('the map /demo draws before the app runs', () => {
  let app: RunningApp
  beforeAll(async () => {
    app = await startApp()
  })
  afterAll(async () => {
    await app?.stop()
  })

  it('draws the map in the boot shell, and the map view keeps that same map on screen, reading each TileJSON and tile once and not the national outline, also from the service worker', async () => {
    const b = await launch(phone)
    try {
      await b.context.addInitScript(watchViewports)
      const tileJsons: string[] = []
      const tiles: string[] = []
      const outline: string[] = []
      b.page.on('request', (r) => {
        const m = /\/tiles\/(basemap|planning|parcels)\.json/.exec(r.url())
        if (m) tileJsons.push(m[1]!)
        if (/\/tiles\/\w+\/\d+\/\d+\/\d+\.pbf/.test(r.url())) tiles.push(r.url())
        // The service worker's precache fetches it too; the page itself should not, over the data.
        if (r.url().includes('/assets/national-outline-') && !r.serviceWorker()) outline.push(r.url())
      })
      await b.page.goto(`${app.url}/demo`)
      await mapReady(b.page)
      await expect.poll(() => paintedPixels(b.page), { timeout: 30_000 }).toBeGreaterThan(1000)
      expect(await watched(b.page)).toEqual({ firstInBoot: true, missing: 0, sameInView: true, viewports: 1 })
      expect(tileJsons.sort()).toEqual(['basemap', 'parcels', 'planning'])
      // The first tiles are preloaded before the map asks for them: its own requests take those over.
      expect(tiles.length).toBeGreaterThan(0)
      expect(new Set(tiles).size).toBe(tiles.length)
      // The first view lies over the data, where the national outline is never drawn: its module is not fetched.
      expect(outline).toEqual([])
      // Opened fitted to the data, and the address then says where.
      await expect.poll(() => new URL(b.page.url()).hash).toMatch(/^#\/10\.79\d*\/106\.\d+\/1[45](\.\d+)?$/)

      await b.page.evaluate(() => navigator.serviceWorker.ready)
      await b.page.reload()
      await mapReady(b.page)
      await expect.poll(() => paintedPixels(b.page), { timeout: 30_000 }).toBeGreaterThan(1000)
      expect(await watched(b.page)).toEqual({ firstInBoot: true, missing: 0, sameInView: true, viewports: 1 })
      expect(await b.page.evaluate(() => navigator.serviceWorker.controller !== null)).toBe(true)
      expect(b.consoleErrors).toEqual([])
    } finally {
      await b.close()
    }
  })

  it('paints the boot shell from the HTML alone: no script, map stylesheet, TileJSON or tile is asked for before that first paint, cold and from the service worker', async () => {
    const b = await launch(phone)
    try {
      // What was asked for before the first contentful paint, besides the document and the stylesheet it links.
      const beforePaint = () =>
        b.page.evaluate(() => {
          const fcp = performance.getEntriesByName('first-contentful-paint')[0]?.startTime ?? Infinity
          const linked = new Set([...document.querySelectorAll<HTMLLinkElement>('body > link')].map((l) => l.href))
          return performance
            .getEntriesByType('resource')
            .filter((e) => e.startTime < fcp && /\/(assets|tiles)\//.test(e.name) && !linked.has(e.name))
            .map((e) => new URL(e.name).pathname)
        })
      await b.page.goto(`${app.url}/demo`)
      await mapReady(b.page)
      expect(await beforePaint()).toEqual([])
      await b.page.evaluate(() => navigator.serviceWorker.ready)
      await b.page.reload()
      await mapReady(b.page)
      expect(await b.page.evaluate(() => navigator.serviceWorker.controller !== null)).toBe(true)
      expect(await beforePaint()).toEqual([])
      expect(b.consoleErrors).toEqual([])
    } finally {
      await b.close()
    }
  })

  it('leaves /demo?lat=&lng= to the app’s router, which opens the map at that place', async () => {
    const b = await launch(phone)
    try {
      await b.context.addInitScript(watchViewports)
      await b.page.goto(`${app.url}/demo?lat=10.7974&lng=106.6996&z=17`)
      await mapReady(b.page)
      expect(await watched(b.page)).toMatchObject({ firstInBoot: false, sameInView: true, viewports: 1 })
      await expect.poll(() => new URL(b.page.url()).hash).toMatch(/^#\/10\.7974\/106\.6996\/17$/)
      expect(b.consoleErrors).toEqual([])
    } finally {
      await b.close()
    }
  })

  it('still opens the map, made by the map view, when the boot map’s module cannot be loaded', async () => {
    const b = await launch({ ...phone, serviceWorkers: 'block' })
    try {
      await b.context.addInitScript(watchViewports)
      await b.page.route('**/assets/boot-map-*.js', (route) => route.abort())
      await b.page.goto(`${app.url}/demo`)
      await mapReady(b.page)
      await expect.poll(() => paintedPixels(b.page), { timeout: 30_000 }).toBeGreaterThan(1000)
      expect(await watched(b.page)).toMatchObject({ firstInBoot: false, missing: 0, sameInView: true, viewports: 1 })
      // The refused module is the only error the browser reports.
      expect(b.consoleErrors.filter((e) => !/ERR_FAILED|boot-map/.test(e))).toEqual([])
    } finally {
      await b.close()
    }
  })
})
