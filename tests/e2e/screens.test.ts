import { createRequire } from 'node:module'
import { readFileSync } from 'node:fs'
import type { Page } from 'playwright-core'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { launch, startApp, type Browser, type RunningApp } from './harness.ts'

/**
 * Every screen, visited once per colour scheme: axe-core finds nothing serious or critical in light,
 * dark and high contrast; at 360×640 and 390×844 no two controls overlap and no page scrolls sideways.
 * One file, one server, one browser per scheme or size, so the whole pass stays short.
 */

const axeSource = readFileSync(createRequire(import.meta.url).resolve('axe-core/axe.min.js'), 'utf8')
const POINT = { lat: 10.7955, lng: 106.7 }
const PASSWORD = 'mat-khau-man-hinh-1'

let app: RunningApp
let session: Record<string, unknown>

type Screen = { name: string; path: string; ready: (page: Page) => Promise<unknown> }
const visible = (page: Page, testId: string) => page.getByTestId(testId).first().waitFor({ timeout: 30_000 })
const heading = (page: Page) => page.getByRole('heading', { level: 1 }).first().waitFor({ timeout: 30_000 })
const screens: Screen[] = [
  { name: 'trang đầu', path: '/', ready: heading },
  {
    name: 'bản đồ',
    path: `/demo#/${POINT.lat}/${POINT.lng}/18`,
    ready: (p) => p.waitForSelector('[data-testid=map][data-ready=true]', { timeout: 30_000 }),
  },
  {
    name: 'kết quả tra cứu',
    path: `/demo#/${POINT.lat}/${POINT.lng}/19/sel/${POINT.lat},${POINT.lng}`,
    ready: (p) => visible(p, 'result-card'),
  },
  {
    name: 'đo trên bản đồ',
    path: `/demo#/${POINT.lat}/${POINT.lng}/18.5`,
    ready: (p) => measuring(p, false),
  },
  {
    name: 'phép đo đã lưu',
    path: `/demo#/${POINT.lat}/${POINT.lng}/18.5`,
    ready: (p) => measuring(p, true),
  },
  { name: 'định giá', path: '/valuation', ready: heading },
  { name: 'offline', path: '/offline', ready: heading },
  { name: 'tài khoản', path: '/account', ready: (p) => visible(p, 'account-email') },
  { name: 'so sánh', path: `/compare?lat=${POINT.lat}&lng=${POINT.lng}`, ready: heading },
  { name: 'sơ đồ thửa', path: `/sketch?lat=${POINT.lat}&lng=${POINT.lng}`, ready: (p) => visible(p, 'corner-table') },
  { name: 'đi đo ranh', path: '/walk', ready: heading },
]

/**
 * The measure panel with two measurements kept on the device (written into its IndexedDB store as the app
 * writes them), and with their list open when `list`.
 */
async function measuring(page: Page, list: boolean) {
  await page.evaluate(
    (rows) =>
      new Promise<void>((done, fail) => {
        const req = indexedDB.open('qh-measures')
        req.onupgradeneeded = () => req.result.createObjectStore('measures')
        req.onerror = () => fail(req.error)
        req.onsuccess = () => {
          const tx = req.result.transaction('measures', 'readwrite')
          for (const r of rows) tx.objectStore('measures').put(r, r.id)
          tx.oncomplete = () => {
            req.result.close()
            done()
          }
        }
      }),
    SAVED_MEASURES,
  )
  await page.reload()
  await page.waitForSelector('[data-testid=map][data-ready=true]', { timeout: 30_000 })
  await page.getByTestId('measure-button').click()
  await visible(page, 'measure-saved-open')
  if (!list) return
  await page.getByTestId('measure-saved-open').click()
  await visible(page, 'saved-measures')
}
const SAVED_MEASURES = [
  {
    id: 'm1',
    name: 'Lô đất sau nhà, cạnh hẻm 261 Điện Biên Phủ',
    kind: 'area',
    points: [
      [106.7, 10.7955],
      [106.7002, 10.7955],
      [106.7002, 10.7957],
      [106.7, 10.7957],
    ],
    lengthM: 87.2,
    areaM2: 480.1,
    sides: [21.9, 22.1, 21.9, 22.1],
    text: '480,1 m² · chu vi 87,2 m',
    at: Date.UTC(2026, 10, 27, 3, 0, 0),
  },
  {
    id: 'm2',
    name: 'Mặt tiền',
    kind: 'length',
    points: [
      [106.7, 10.7955],
      [106.7002, 10.7955],
    ],
    lengthM: 21.9,
    areaM2: 0,
    sides: [21.9],
    text: '21,9 m',
    at: Date.UTC(2026, 10, 27, 4, 0, 0),
  },
]

async function api<T>(path: string, json?: unknown): Promise<{ status: number; data: T }> {
  const res = await fetch(`${app.url}${path}`, {
    method: json === undefined ? 'GET' : 'POST',
    headers: { 'Content-Type': 'application/json' },
    body: json === undefined ? undefined : JSON.stringify(json),
  })
  return { status: res.status, data: ((await res.json()) as { data: T }).data }
}

async function open(opts: Parameters<typeof launch>[0]): Promise<Browser> {
  const b = await launch({ ...opts, serviceWorkers: 'block' })
  await b.context.addInitScript((s) => localStorage.setItem('qh.session', JSON.stringify(s)), session)
  return b
}

async function visit(page: Page, s: Screen) {
  await page.goto(`${app.url}${s.path}`)
  await s.ready(page)
  // Lazy parts (search box, legend, fonts) settle after the first paint.
  await page.evaluate(() => document.fonts.ready)
  await page.waitForLoadState('networkidle').catch(() => undefined)
  // A dialog fading in is half transparent: axe would measure its colours mid-way. Finite animations and
  // transitions end first (a spinner's never does, so it is not waited for).
  await page.evaluate(() =>
    Promise.all(
      document
        .getAnimations()
        .filter((a) => Number.isFinite(Number(a.effect?.getComputedTiming().endTime ?? Infinity)))
        .map((a) => a.finished.catch(() => undefined)),
    ),
  )
}

type Finding = { id: string; impact: string; help: string; targets: string[] }
async function axeFindings(page: Page): Promise<Finding[]> {
  await page.evaluate(axeSource)
  return page.evaluate(async () => {
    const axe = (window as unknown as { axe: { run: (c: unknown, o: unknown) => Promise<{ violations: never[] }> } })
      .axe
    const { violations } = await axe.run(document, {
      runOnly: { type: 'tag', values: ['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa', 'best-practice'] },
      resultTypes: ['violations'],
    })
    return (violations as { id: string; impact: string; help: string; nodes: { target: string[] }[] }[])
      .filter((v) => v.impact === 'serious' || v.impact === 'critical')
      .map((v) => ({ id: v.id, impact: v.impact, help: v.help, targets: v.nodes.map((n) => n.target.join(' ')) }))
  })
}

/** Controls a finger may tap, and the chips and bars drawn over the map. */
const CONTROLS =
  'button, a[href], input:not([type=hidden]), select, textarea, [role=button], [role=combobox], [role=tab], .ol-attribution, .ol-scale-line, [data-testid=usage-counter]'

/** Pairs of visible controls overlapping by more than a sliver; a control inside another is not an overlap. */
function overlaps(page: Page): Promise<string[]> {
  return page.evaluate((selector) => {
    const name = (el: Element) =>
      `${el.tagName.toLowerCase()}${el.getAttribute('data-testid') ? `[${el.getAttribute('data-testid')}]` : ''} "${(
        el.getAttribute('aria-label') ??
        (el as HTMLElement).innerText ??
        el.getAttribute('placeholder') ??
        ''
      )
        .trim()
        .slice(0, 30)}"`
    // While a modal dialog is open only its controls can be tapped: what lies under it is not in the way.
    const modal = document.querySelector('[role=dialog][aria-modal=true]')
    const shown = [...(modal ?? document).querySelectorAll(selector)].filter((el) => {
      const r = el.getBoundingClientRect()
      if (r.width < 2 || r.height < 2 || r.bottom <= 0 || r.top >= innerHeight) return false
      if (el.closest('[aria-hidden=true], .visually-hidden')) return false
      const style = getComputedStyle(el)
      return style.visibility !== 'hidden' && style.opacity !== '0'
    })
    // A page's content scrolls under its sticky header and bottom bar: that is not an overlap. Something
    // fixed over them (a banner, the map's controls) is.
    const bar = (el: Element) => el.closest('.app-header, .app-nav-bottom') !== null
    const floating = (el: Element) => {
      for (let e: Element | null = el; e; e = e.parentElement) {
        if (e.classList.contains('qh-map')) return true
        const position = getComputedStyle(e).position
        if (position === 'fixed' || position === 'sticky') return true
      }
      return false
    }
    // A field's own parts (a password's eye button lies over its input) belong together.
    const sameField = (a: Element, b: Element) => {
      const field = a.closest('.mantine-Input-wrapper')
      return field !== null && field.contains(b)
    }
    const found: string[] = []
    for (let i = 0; i < shown.length; i++)
      for (let j = i + 1; j < shown.length; j++) {
        const a = shown[i]!
        const b = shown[j]!
        if (a.contains(b) || b.contains(a) || sameField(a, b)) continue
        if ((bar(a) && !bar(b) && !floating(b)) || (bar(b) && !bar(a) && !floating(a))) continue
        const ra = a.getBoundingClientRect()
        const rb = b.getBoundingClientRect()
        const w = Math.min(ra.right, rb.right) - Math.max(ra.left, rb.left)
        const h = Math.min(ra.bottom, rb.bottom) - Math.max(ra.top, rb.top)
        if (w > 2 && h > 2) found.push(`${name(a)} × ${name(b)}`)
      }
    return found
  }, CONTROLS)
}

beforeAll(async () => {
  app = await startApp()
  const email = `man-hinh-${Date.now().toString(36)}@example.com`
  expect((await api('/api/auth/register', { name: 'Người Kiểm Tra', email, password: PASSWORD })).status).toBe(201)
  const login = await api<{ access_token: string; expires_at: string; name: string }>('/api/auth/login', {
    email,
    password: PASSWORD,
  })
  session = {
    userName: login.data.name,
    token: login.data.access_token,
    expiresAt: login.data.expires_at,
    isLogin: true,
    isOpenLogin: false,
  }
})
afterAll(async () => {
  await app?.stop()
})

describe('every screen', () => {
  it.each([
    { scheme: 'light', media: { colorScheme: 'light' } },
    { scheme: 'dark', media: { colorScheme: 'dark' } },
    { scheme: 'high contrast', media: { colorScheme: 'light', contrast: 'more' } },
  ] as const)('has no serious or critical accessibility finding in $scheme', async ({ scheme, media }) => {
    const b = await open({ viewport: { width: 390, height: 844 }, mobile: true })
    try {
      await b.page.emulateMedia(media)
      const found: Record<string, Finding[]> = {}
      for (const s of screens) {
        await visit(b.page, s)
        const f = await axeFindings(b.page)
        if (f.length > 0) found[s.name] = f
      }
      // The whole list, not vitest's shortened diff: what to fix, screen by screen.
      if (Object.keys(found).length > 0) console.log(scheme, JSON.stringify(found, null, 1))
      expect(found, scheme).toEqual({})
    } finally {
      await b.close()
    }
  })

  it.each([
    { width: 360, height: 640 },
    { width: 390, height: 844 },
  ])('keeps every control clear of the others and every page within the width at $width×$height', async (size) => {
    const b = await open({ viewport: size, mobile: true })
    try {
      const found: Record<string, string[]> = {}
      for (const s of screens) {
        await visit(b.page, s)
        const problems = await overlaps(b.page)
        const wide = await b.page.evaluate(() => document.documentElement.scrollWidth - innerWidth)
        if (wide > 0) problems.push(`scrolls sideways by ${wide} px`)
        const cut = await b.page.evaluate(() => {
          const c = document.querySelector<HTMLElement>('[data-testid=usage-counter] .mantine-Badge-label')
          return c ? c.scrollWidth > c.clientWidth : false
        })
        if (cut) problems.push('the lookup counter is cut short')
        const hintCut = await b.page.evaluate(() => {
          const input = document.querySelector<HTMLInputElement>('[role=combobox][placeholder]')
          if (!input) return false
          const style = getComputedStyle(input)
          const ctx = document.createElement('canvas').getContext('2d')!
          ctx.font = style.font
          const room = input.clientWidth - parseFloat(style.paddingLeft) - parseFloat(style.paddingRight)
          return ctx.measureText(input.placeholder).width > room
        })
        if (hintCut) problems.push('the search field’s hint is cut short')
        if (problems.length > 0) found[s.name] = problems
        const file = `${s.path.split(/[/?#]/)[1] || 'home'}${s.ready === heading ? '' : `-${s.name.replace(/ /g, '-')}`}`
        await b.page.screenshot({ path: `out/screens-${size.width}-${file}.png` })
      }
      if (Object.keys(found).length > 0) console.log(size, JSON.stringify(found, null, 1))
      expect(found).toEqual({})
    } finally {
      await b.close()
    }
  })
})
