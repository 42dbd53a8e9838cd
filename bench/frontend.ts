import { existsSync } from 'node:fs'
import { join } from 'node:path'
import { launch as launchChrome } from 'chrome-launcher'
import lighthouse from 'lighthouse'
import type { Page } from 'playwright-core'
import { CHROMIUM, CHROMIUM_FLAGS, launch, phoneContext, SLOW_4G, throttle } from './lib/browser.ts'
import { readDist, summariseDist, total, type DistGraph, type Sizes } from './lib/dist-chunks.ts'
import { startBenchServer } from './lib/server-process.ts'
import { ratio } from './lib/stats.ts'
import { fmt, type Table } from './lib/table.ts'

export const FRONT_TARGETS = { initialGzipKB: 200, lcpColdMs: 1500, mapVisibleWarmMs: 600, controlsUsableWarmMs: 1000 }

export type LighthouseFigures = {
  lcpMs: number
  fcpMs: number
  tbtMs: number
  cls: number
  totalBytes: number
  score: number
}
export type MapVisible = { ms: number | null; scriptCssBytes: number; tileBytes: number; requests: number }
export type FrontendResult = {
  sizes: {
    initial: Sizes
    route: Sizes
    firstPaint: Sizes
    sw: Sizes | null
    routeChunk: string | null
    chunks: (Sizes & { file: string; initial: boolean; route: boolean })[]
  }
  lighthouse: { cold: LighthouseFigures; warm: LighthouseFigures } | null
  mapVisible: { cold: MapVisible; warm: MapVisible; coldRuns: number[]; warmRuns: number[] } | null
  controls: { cold: ControlsUsable; warm: ControlsUsable; coldRuns: number[]; warmRuns: number[] } | null
}

const kb = (b: number) => b / 1000

export function sizesTables(g: DistGraph): { tables: Table[]; sizes: FrontendResult['sizes'] } {
  const s = summariseDist(g, 'demo')
  const initial = total(g, s.initial)
  const route = total(g, s.route)
  const firstPaint = total(g, s.firstPaint)
  const chunks = [...g.chunks.values()]
    .sort((a, b) => b.gzip - a.gzip)
    .map((c) => ({
      file: c.file,
      raw: c.raw,
      gzip: c.gzip,
      brotli: c.brotli,
      initial: s.initial.has(c.file),
      route: s.route.has(c.file),
    }))
  const all = total(g, g.chunks.keys())
  const row = (name: string, z: Sizes, target?: string, ok?: string) => [
    name,
    fmt.kb(z.raw),
    fmt.kb(z.gzip),
    fmt.kb(z.brotli),
    fmt.ratio(ratio(z.brotli, z.gzip)),
    target ?? '',
    ok ?? '',
  ]
  const perChunk: Table = {
    title: '3a. Front-end chunks (kB = 1000 bytes), largest first',
    head: ['chunk', 'raw kB', 'gzip kB', 'brotli kB', 'br/gz', 'loaded', ''],
    rows: chunks.map((c) => [
      c.file.replace('assets/', ''),
      fmt.kb(c.raw),
      fmt.kb(c.gzip),
      fmt.kb(c.brotli),
      fmt.ratio(ratio(c.brotli, c.gzip)),
      c.initial ? 'initial' : c.route ? '/demo map' : 'later',
      '',
    ]),
  }
  const summary: Table = {
    title: '3b. Bytes before the first map paint on /demo',
    head: ['what', 'raw kB', 'gzip kB', 'brotli kB', 'br/gz', 'target', ''],
    rows: [
      row(
        'initial JS+CSS (index.html)',
        initial,
        `≤ ${FRONT_TARGETS.initialGzipKB} gzip`,
        fmt.target(kb(initial.gzip), FRONT_TARGETS.initialGzipKB),
      ),
      row(`+ map route (${s.routeChunk?.replace('assets/', '') ?? 'not found'} and its lazy map view)`, route),
      row('= before the first map paint', firstPaint),
      ...(g.sw ? [row('service worker (sw.js)', g.sw)] : []),
      row('all JS+CSS in the build', all),
    ],
    notes: ['Plus index.html, TileJSON and the first tiles (measured in 3d).'],
  }
  return {
    tables: [perChunk, summary],
    sizes: { initial, route, firstPaint, sw: g.sw, routeChunk: s.routeChunk, chunks },
  }
}

/** Lighthouse on `url` in a fresh Chromium profile: a cold load, then a warm one with storage kept. */
export async function lighthouseFigures(url: string): Promise<{ cold: LighthouseFigures; warm: LighthouseFigures }> {
  const chrome = await launchChrome({
    chromePath: CHROMIUM,
    chromeFlags: CHROMIUM_FLAGS.map((f) => (f === '--headless' ? '--headless=new' : f)),
  })
  try {
    const once = async (disableStorageReset: boolean): Promise<LighthouseFigures> => {
      // Lighthouse's default config: mobile emulation, simulated Slow 4G and 4× CPU slowdown.
      const result = await lighthouse(url, {
        port: chrome.port,
        logLevel: 'error',
        output: 'json',
        onlyCategories: ['performance'],
        disableStorageReset,
      })
      const lhr = result?.lhr
      if (!lhr) throw new Error('Lighthouse returned no report')
      if (lhr.runtimeError) throw new Error(`Lighthouse: ${lhr.runtimeError.message}`)
      const n = (id: string) => lhr.audits[id]?.numericValue ?? Number.NaN
      return {
        lcpMs: n('largest-contentful-paint'),
        fcpMs: n('first-contentful-paint'),
        tbtMs: n('total-blocking-time'),
        cls: n('cumulative-layout-shift'),
        totalBytes: n('total-byte-weight'),
        score: (lhr.categories.performance?.score ?? Number.NaN) * 100,
      }
    }
    const cold = await once(false)
    // Second load in the same profile: the service worker installed by the first is in control.
    const warm = await once(true)
    return { cold, warm }
  } finally {
    chrome.kill()
  }
}

/**
 * Time from navigation start to the first frame with a drawn map after the first vector tile arrived,
 * read in the page (a canvas of the map holding painted pixels); with the JS/CSS and tile bytes
 * fetched by then. Under the same Slow 4G and 4× CPU slowdown, cold (fresh profile) and warm (reload
 * with the service worker in control).
 */
const PROBE = `(() => {
  const probe = { tileAt: null, visibleAt: null }
  window.__qhMapProbe = probe
  new PerformanceObserver((list) => {
    for (const e of list.getEntries()) if (probe.tileAt === null && /\\/tiles\\/.+\\.pbf/.test(e.name)) probe.tileAt = e.responseEnd
  }).observe({ type: 'resource', buffered: true })
  const sample = document.createElement('canvas')
  sample.width = sample.height = 16
  const painted = (c) => {
    try {
      const ctx = sample.getContext('2d', { willReadFrequently: true })
      ctx.clearRect(0, 0, 16, 16)
      ctx.drawImage(c, 0, 0, 16, 16)
      const d = ctx.getImageData(0, 0, 16, 16).data
      for (let i = 3; i < d.length; i += 4) if (d[i] > 0) return true
    } catch {}
    return false
  }
  const check = () => {
    if (probe.tileAt !== null) {
      for (const c of document.querySelectorAll('.qh-map-canvas canvas')) {
        if (c.width > 0 && c.height > 0 && painted(c)) { probe.visibleAt = performance.now(); return }
      }
    }
    requestAnimationFrame(check)
  }
  requestAnimationFrame(check)
})()`

/** One fresh profile: a cold load, then a reload once the service worker controls the page. */
export async function mapVisibleOnce(url: string): Promise<{ cold: MapVisible; warm: MapVisible }> {
  const browser = await launch()
  try {
    const context = await phoneContext(browser)
    await context.addInitScript(PROBE)
    const page = await context.newPage()
    await throttle(page, SLOW_4G, SLOW_4G.cpuSlowdown)
    const read = async (): Promise<MapVisible> => {
      // A function, not a string: the app's CSP forbids eval.
      await page.waitForFunction(
        () => (window as unknown as { __qhMapProbe?: { visibleAt: number | null } }).__qhMapProbe?.visibleAt != null,
        null,
        {
          timeout: 90_000,
        },
      )
      return page.evaluate(() => {
        const at = (window as unknown as { __qhMapProbe: { visibleAt: number } }).__qhMapProbe.visibleAt
        const entries = performance.getEntriesByType('resource') as PerformanceResourceTiming[]
        const before = entries.filter((e) => e.responseEnd <= at)
        const bytes = (e: PerformanceResourceTiming) => e.transferSize || e.encodedBodySize
        return {
          ms: Math.round(at),
          scriptCssBytes: before.filter((e) => /\.(js|css)(\?|$)/.test(e.name)).reduce((s, e) => s + bytes(e), 0),
          tileBytes: before.filter((e) => /\/tiles\//.test(e.name)).reduce((s, e) => s + bytes(e), 0),
          requests: before.length,
        }
      })
    }
    await page.goto(url)
    const cold = await read()
    await page.evaluate(async () => {
      await navigator.serviceWorker.ready
      if (!navigator.serviceWorker.controller)
        await new Promise((r) => navigator.serviceWorker.addEventListener('controllerchange', r, { once: true }))
    })
    // Let the worker finish precaching before the second load.
    await page.waitForTimeout(3000)
    await page.reload()
    const warm = await read()
    return { cold, warm }
  } finally {
    await browser.close()
  }
}

/** When the app answered the controls, read in the page (navigation start = 0); null: it never did. */
export type ControlsUsable = { searchMs: number | null; buttonMs: number | null; ms: number | null }

/**
 * Notes the first frame that shows each answer: the search box's own note under it (logged out, typing two
 * letters says that searching needs a login: the search code's handler, no network) and the login dialog the
 * header's button opens. The bench types and clicks (below); nothing here is set by the app.
 */
const CONTROLS_PROBE = `(() => {
  const probe = { searchAt: null, buttonAt: null }
  window.__qhControlsProbe = probe
  const shown = (sel) => { const el = document.querySelector(sel); return el !== null && el.getClientRects().length > 0 }
  const check = () => {
    if (probe.searchAt === null && shown('.qh-search .qh-search-note')) probe.searchAt = performance.now()
    if (probe.buttonAt === null && shown('[role="dialog"]')) probe.buttonAt = performance.now()
    if (probe.searchAt === null || probe.buttonAt === null) requestAnimationFrame(check)
  }
  requestAnimationFrame(check)
})()`

type ControlsProbe = { searchAt: number | null; buttonAt: number | null }
// Functions run in the page (the app's CSP forbids eval), so each reads the probe itself.
const readProbe = () => (window as unknown as { __qhControlsProbe?: ControlsProbe }).__qhControlsProbe ?? null
const searchAnswered = () =>
  (window as unknown as { __qhControlsProbe?: ControlsProbe }).__qhControlsProbe?.searchAt != null
const buttonAnswered = () =>
  (window as unknown as { __qhControlsProbe?: ControlsProbe }).__qhControlsProbe?.buttonAt != null

/**
 * From navigation start, as a person would try it: type into the map's search box as soon as the app's box
 * (not the boot shell's disabled one) takes text, again every half second with other letters until the box
 * answers; then tap the header's login button until its dialog shows. Usable = the later of the two answers.
 */
async function readControls(page: Page, deadline: number): Promise<ControlsUsable> {
  const probe = () => page.evaluate(readProbe).catch(() => null)
  const search = page.locator('input[data-testid="map-search"]')
  for (let i = 0; (await probe())?.searchAt == null; i++) {
    if (Date.now() > deadline) break
    await search.fill(i % 2 === 0 ? 'ha' : 'hu', { timeout: 2_000 }).catch(() => {})
    await page.waitForFunction(searchAnswered, null, { timeout: 500 }).catch(() => {})
  }
  const button = page.getByRole('button', { name: 'Đăng nhập', exact: true })
  while ((await probe())?.buttonAt == null) {
    if (Date.now() > deadline) break
    await button.click({ timeout: 2_000 }).catch(() => {})
    await page.waitForFunction(buttonAnswered, null, { timeout: 1_000 }).catch(() => {})
  }
  const p = await probe()
  const searchMs = p?.searchAt == null ? null : Math.round(p.searchAt)
  const buttonMs = p?.buttonAt == null ? null : Math.round(p.buttonAt)
  return { searchMs, buttonMs, ms: searchMs === null || buttonMs === null ? null : Math.max(searchMs, buttonMs) }
}

/**
 * Controls usable on /demo in one fresh profile under the same emulation as the map's: a cold load, then a
 * reload once the service worker controls the page. A profile of its own, so typing and tapping do not move the
 * map-visible figures.
 */
export async function controlsUsableOnce(url: string): Promise<{ cold: ControlsUsable; warm: ControlsUsable }> {
  const browser = await launch()
  try {
    const context = await phoneContext(browser)
    await context.addInitScript(CONTROLS_PROBE)
    const page = await context.newPage()
    await throttle(page, SLOW_4G, SLOW_4G.cpuSlowdown)
    await page.goto(url, { waitUntil: 'commit' })
    const cold = await readControls(page, Date.now() + 90_000)
    await page.keyboard.press('Escape')
    await page.evaluate(async () => {
      await navigator.serviceWorker.ready
      if (!navigator.serviceWorker.controller)
        await new Promise((r) => navigator.serviceWorker.addEventListener('controllerchange', r, { once: true }))
    })
    // Let the worker finish precaching before the second load.
    await page.waitForTimeout(3000)
    await page.reload({ waitUntil: 'commit' })
    const warm = await readControls(page, Date.now() + 90_000)
    return { cold, warm }
  } finally {
    await browser.close()
  }
}

/** The run with the median time, of `runs` fresh profiles: one slow neighbour on a shared machine moves it less. */
async function measureMapVisible(
  url: string,
  runs: number,
): Promise<{ cold: MapVisible; warm: MapVisible; coldRuns: number[]; warmRuns: number[] }> {
  const all: { cold: MapVisible; warm: MapVisible }[] = []
  for (let i = 0; i < runs; i++) all.push(await mapVisibleOnce(url))
  const median = (pick: (r: { cold: MapVisible; warm: MapVisible }) => MapVisible) => {
    const sorted = all.map(pick).sort((a, b) => (a.ms ?? 0) - (b.ms ?? 0))
    return sorted[Math.floor(sorted.length / 2)] as MapVisible
  }
  return {
    cold: median((r) => r.cold),
    warm: median((r) => r.warm),
    coldRuns: all.map((r) => r.cold.ms ?? Number.NaN),
    warmRuns: all.map((r) => r.warm.ms ?? Number.NaN),
  }
}

/** The run with the median "usable" time, of `runs` fresh profiles (a run that never answered counts as slowest). */
async function measureControls(url: string, runs: number): Promise<NonNullable<FrontendResult['controls']>> {
  const all: { cold: ControlsUsable; warm: ControlsUsable }[] = []
  for (let i = 0; i < runs; i++) all.push(await controlsUsableOnce(url))
  const median = (pick: (r: { cold: ControlsUsable; warm: ControlsUsable }) => ControlsUsable) => {
    const sorted = all.map(pick).sort((a, b) => (a.ms ?? Infinity) - (b.ms ?? Infinity))
    return sorted[Math.floor(sorted.length / 2)] as ControlsUsable
  }
  return {
    cold: median((r) => r.cold),
    warm: median((r) => r.warm),
    coldRuns: all.map((r) => r.cold.ms ?? Number.NaN),
    warmRuns: all.map((r) => r.warm.ms ?? Number.NaN),
  }
}

export async function frontendSection(o: {
  root: string
  lighthouse: boolean
  show: (t: Table) => void
  log: (s: string) => void
  serverEnv: Record<string, string>
}): Promise<FrontendResult> {
  const dist = process.env.DIST_DIR || join(o.root, 'dist')
  if (!existsSync(join(dist, 'index.html'))) throw new Error(`No build in ${dist}: run npm run build first.`)
  const { tables, sizes } = sizesTables(readDist(dist))
  tables.forEach(o.show)
  if (!o.lighthouse) return { sizes, lighthouse: null, mapVisible: null, controls: null }

  const server = await startBenchServer({ ...o.serverEnv, DIST_DIR: dist })
  try {
    const url = `${server.url}/demo`
    o.log('Lighthouse on /demo (cold, then warm)…')
    const lh = await lighthouseFigures(url)
    o.log('Map visible on /demo (cold, then warm)…')
    const mv = await measureMapVisible(url, 3)
    o.log('Controls usable on /demo (cold, then warm)…')
    const controls = await measureControls(url, 3)
    const lhRow = (name: string, f: LighthouseFigures) => [
      name,
      fmt.ms(f.fcpMs),
      fmt.ms(f.lcpMs),
      fmt.ms(f.tbtMs),
      fmt.n(f.cls, 3),
      fmt.kb(f.totalBytes),
      fmt.n(f.score),
    ]
    o.show({
      title: '3c. Lighthouse 13 on /demo — mobile, simulated Slow 4G, 4× CPU (ms, kB)',
      head: ['load', 'FCP', 'LCP', 'TBT', 'CLS', 'total kB', 'score'],
      rows: [lhRow('cold', lh.cold), lhRow('warm (service worker)', lh.warm)],
      notes: [
        `LCP cold target ≤ ${FRONT_TARGETS.lcpColdMs} ms: ${fmt.target(lh.cold.lcpMs, FRONT_TARGETS.lcpColdMs)} (${fmt.ratio(ratio(lh.cold.lcpMs, FRONT_TARGETS.lcpColdMs))} of target)`,
      ],
    })
    const mvRow = (name: string, m: MapVisible, target?: number) => [
      name,
      fmt.ms(m.ms),
      fmt.kb(m.scriptCssBytes),
      fmt.kb(m.tileBytes),
      String(m.requests),
      target ? `≤ ${target}` : '',
      target ? `${fmt.target(m.ms, target)} (${fmt.ratio(ratio(m.ms, target))})` : '',
    ]
    o.show({
      title:
        '3d. Map visible on /demo — Chromium, Slow 4G + 4× CPU emulated, median of 3 profiles (ms, kB fetched by then)',
      head: ['load', 'map visible ms', 'JS+CSS kB', 'tiles kB', 'requests', 'target', ''],
      rows: [mvRow('cold', mv.cold), mvRow('warm (service worker)', mv.warm, FRONT_TARGETS.mapVisibleWarmMs)],
      notes: [
        `each run, ms: cold ${mv.coldRuns.join(', ')}; warm ${mv.warmRuns.join(', ')}. Warm kB are bytes read from the service worker's cache (uncompressed).`,
      ],
    })
    const cuRow = (name: string, c: ControlsUsable, target?: number) => [
      name,
      fmt.ms(c.searchMs),
      fmt.ms(c.buttonMs),
      fmt.ms(c.ms),
      target ? `≤ ${target}` : '',
      target ? `${fmt.target(c.ms, target)} (${fmt.ratio(ratio(c.ms, target))})` : '',
    ]
    o.show({
      title:
        '3f. Controls usable on /demo — Chromium, Slow 4G + 4× CPU emulated, median of 3 profiles (ms from navigation start)',
      head: ['load', 'search box answers', 'header button answers', 'controls usable', 'target', ''],
      rows: [
        cuRow('cold', controls.cold),
        cuRow('warm (service worker)', controls.warm, FRONT_TARGETS.controlsUsableWarmMs),
      ],
      notes: [
        `each run, ms: cold ${controls.coldRuns.join(', ')}; warm ${controls.warmRuns.join(', ')}.`,
        "The bench types two letters into the map's search box from navigation start until the box answers (logged out: its note that searching needs a login), then taps the header's login button until its dialog shows; each time is the first frame showing the answer. Usable = the later of the two.",
      ],
    })
    return { sizes, lighthouse: lh, mapVisible: mv, controls }
  } finally {
    await server.stop()
  }
}
