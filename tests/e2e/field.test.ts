import { execFileSync, spawnSync } from 'node:child_process'
import { mkdirSync, mkdtempSync, readFileSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join, resolve } from 'node:path'
import type { Page } from 'playwright-core'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { vn2000Proj } from '#core/geo/vn2000.ts'
import { readDxfWithGdal } from '../support/gdal-dxf.ts'
import { launch, phone, startApp, type Browser, type RunningApp } from './harness.ts'

/**
 * Field use at phone size against the real built server: the parcel sketch of a demo parcel, whose
 * corner table must match VN-2000 computed by PROJ's cs2cs and whose DXF reads back with the same
 * corners; and a GPS boundary walk with scripted positions that survives closing the browser and
 * ends offline, with the area of the parcel within 1 %.
 */

const shots = resolve(import.meta.dirname, '../../out')
mkdirSync(shots, { recursive: true })
const PASSWORD = 'mat-khau-hien-truong-1'
const POINT = { lat: 10.7955, lng: 106.7 }
const hasCs2cs = spawnSync('cs2cs', [], { stdio: 'ignore' }).error === undefined

type Planning = {
  parcel: {
    id: string
    sheet_no: number
    parcel_no: number
    area_m2: number
    geometry: { type: string; coordinates: unknown }
  }
  location: { vn2000: { zone_meridian: number } }
}

let app: RunningApp
let session: Record<string, unknown>
let planning: Planning
const dirs: string[] = []
const tempDir = (prefix: string) => {
  const d = mkdtempSync(join(tmpdir(), prefix))
  dirs.push(d)
  return d
}

async function api<T>(
  path: string,
  init: { method?: string; json?: unknown; token?: string } = {},
): Promise<{ status: number; data: T }> {
  const res = await fetch(`${app.url}${path}`, {
    method: init.method ?? 'GET',
    headers: { 'Content-Type': 'application/json', ...(init.token ? { Authorization: `Bearer ${init.token}` } : {}) },
    body: init.json === undefined ? undefined : JSON.stringify(init.json),
  })
  return { status: res.status, data: ((await res.json()) as { data: T }).data }
}

/** The parcel's corners (closing point dropped) as lon/lat. */
const corners = () => {
  const g = planning.parcel.geometry
  const ring =
    g.type === 'MultiPolygon' ? (g.coordinates as number[][][][])[0]![0]! : (g.coordinates as number[][][])[0]!
  return ring.slice(0, -1) as [number, number][]
}

/** VN-2000 [X northing, Y easting] of lon/lat points, computed by cs2cs, not by the app's code. */
function cs2csVn2000(points: [number, number][], meridian: number): [number, number][] {
  const out = execFileSync(
    'cs2cs',
    ['-f', '%.4f', '+proj=longlat', '+datum=WGS84', '+no_defs', '+to', ...vn2000Proj(meridian).split(' ')],
    {
      input: points.map(([lng, lat]) => `${lng} ${lat}`).join('\n') + '\n',
      encoding: 'utf8',
    },
  )
  return out
    .trim()
    .split('\n')
    .map((l) => {
      const [e, n] = l.trim().split(/\s+/).map(Number) as [number, number]
      return [n, e]
    })
}

const shoelace = (pts: [number, number][]) =>
  Math.abs(
    pts.reduce((s, [x1, y1], i) => s + x1 * pts[(i + 1) % pts.length]![1] - pts[(i + 1) % pts.length]![0] * y1, 0),
  ) / 2

async function openPhone(
  profile: string,
  path: string,
  opts: { offline?: boolean; geolocation?: { latitude: number; longitude: number; accuracy: number } } = {},
): Promise<Browser> {
  const b = await launch({
    ...phone,
    userDataDir: profile,
    ...(opts.geolocation ? { permissions: ['geolocation'], geolocation: opts.geolocation } : {}),
  })
  await b.context.addInitScript((s) => localStorage.setItem('qh.session', JSON.stringify(s)), session)
  if (opts.offline) await b.context.setOffline(true)
  await b.page.goto(`${app.url}${path}`)
  await b.page.waitForFunction(() => navigator.serviceWorker.controller !== null, undefined, { timeout: 30_000 })
  return b
}

/** Looks the parcel up through the map (as a user's tap would) so it lands in the device's history. */
async function lookUpOnMap(page: Page) {
  await page.goto(`${app.url}/demo#/${POINT.lat}/${POINT.lng}/19/sel/${POINT.lat},${POINT.lng}`)
  await expect.poll(() => page.getByTestId('result-title').count(), { timeout: 30_000 }).toBe(1)
  await expect
    .poll(() =>
      page.evaluate(
        () =>
          new Promise<number>((done) => {
            const open = indexedDB.open('qh-history')
            open.onupgradeneeded = () => open.result.createObjectStore('history')
            open.onsuccess = () => {
              const req = open.result.transaction('history').objectStore('history').count()
              req.onsuccess = () => done(req.result)
            }
          }),
      ),
    )
    .toBeGreaterThan(0)
}

beforeAll(async () => {
  app = await startApp()
  const email = `field-${Date.now().toString(36)}@example.com`
  expect(
    (await api('/api/auth/register', { method: 'POST', json: { name: 'Người Đo Đạc', email, password: PASSWORD } }))
      .status,
  ).toBe(201)
  const login = await api<{ access_token: string; expires_at: string; name: string }>('/api/auth/login', {
    method: 'POST',
    json: { email, password: PASSWORD },
  })
  session = {
    userName: login.data.name,
    token: login.data.access_token,
    expiresAt: login.data.expires_at,
    isLogin: true,
    isOpenLogin: false,
  }
  const res = await api<Planning>(`/api/planning?lat=${POINT.lat}&lng=${POINT.lng}`, { token: login.data.access_token })
  expect(res.status).toBe(200)
  planning = res.data
  expect(['Polygon', 'MultiPolygon']).toContain(planning.parcel.geometry.type)
})

afterAll(async () => {
  await app?.stop()
  for (const d of dirs) rmSync(d, { recursive: true, force: true })
})

describe('field use at 390×844', () => {
  it.skipIf(!hasCs2cs)(
    'draws the sketch of a looked-up parcel with corners matching cs2cs, exports a DXF that reads back with them, and prints on A4',
    async () => {
      const b = await openPhone(tempDir('qh-field-sketch-'), '/')
      try {
        const { page } = b
        await lookUpOnMap(page)
        await page.getByTestId('result-card').getByRole('link', { name: 'Sơ đồ thửa' }).click()
        await expect.poll(() => page.getByTestId('corner-table').count(), { timeout: 20_000 }).toBe(1)
        expect(await page.getByTestId('sketch-title').innerText()).toBe(
          `Thửa ${planning.parcel.parcel_no}, tờ bản đồ ${planning.parcel.sheet_no}`,
        )

        const rows = await page
          .getByTestId('corner-table')
          .locator('tbody tr')
          .evaluateAll((trs) =>
            trs.map((tr) => [Number(tr.getAttribute('data-x')), Number(tr.getAttribute('data-y'))] as [number, number]),
          )
        const expected = cs2csVn2000(corners(), planning.location.vn2000.zone_meridian)
        expect(rows).toHaveLength(expected.length)
        // Every corner in the table is one of PROJ's, within a centimetre, each used once.
        const unused = [...expected]
        for (const [x, y] of rows) {
          const i = unused.findIndex(([ex, ey]) => Math.hypot(ex - x, ey - y) < 0.01)
          expect(i, `corner ${x}, ${y} not among cs2cs's ${JSON.stringify(unused)}`).toBeGreaterThanOrEqual(0)
          unused.splice(i, 1)
        }
        expect(await page.getByTestId('sketch-drawing').locator('text').first().isVisible()).toBe(true)

        // The neighbours are read from the tiles around the parcel after the outline shows.
        await expect
          .poll(() => page.getByTestId('sketch-neighbours').textContent(), { timeout: 20_000 })
          .toMatch(/^thửa /)
        const [download] = await Promise.all([
          page.waitForEvent('download'),
          page.getByRole('button', { name: 'Tải DXF' }).click(),
        ])
        const dxf = await readDxfWithGdal(readFileSync((await download.path())!))
        const outlines = dxf.entities.filter((e) => e.layer === 'RANH_THUA')
        expect(outlines).toHaveLength(1)
        const vertices = (outlines[0]!.geometry!.coordinates as number[][]).map(([e, n]) => [e, n])
        const drawn = rows.map(([x, y]) => [Number(y.toFixed(3)), Number(x.toFixed(3))])
        expect(vertices).toEqual([...drawn, drawn[0]])
        // The words keep their Vietnamese: the title, and the neighbours and street the screen lists.
        const texts = (layer: string) => dxf.entities.filter((e) => e.layer === layer).map((e) => e.text)
        expect(texts('GHI_CHU')[0]).toMatch(/^Thửa \d+, tờ bản đồ \d+/)
        expect(texts('THUA_KE').length).toBeGreaterThan(0)
        expect(texts('THUA_KE').every((t) => /^Thửa \d+, tờ \d+$/.test(t ?? ''))).toBe(true)

        await page.screenshot({ path: join(shots, 'sketch-phone-light.png'), fullPage: true })
        await page.emulateMedia({ colorScheme: 'dark' })
        await page.screenshot({ path: join(shots, 'sketch-phone-dark.png'), fullPage: true })
        await page.emulateMedia({ media: 'print', colorScheme: 'light' })
        expect(await page.getByRole('button', { name: 'Tải DXF' }).isVisible()).toBe(false)
        // Drawing and corner table on one A4 page.
        const pdf = await page.pdf({ path: join(shots, 'sketch-a4.pdf'), format: 'A4' })
        expect(pdf.toString('latin1').match(/\/Type\s*\/Page(?!s)/g)).toHaveLength(1)
        await page.emulateMedia({ media: 'screen' })
        await page.setViewportSize({ width: 1280, height: 800 })
        await page.screenshot({ path: join(shots, 'sketch-desktop-light.png'), fullPage: true })
        await page.emulateMedia({ colorScheme: 'dark' })
        await page.screenshot({ path: join(shots, 'sketch-desktop-dark.png'), fullPage: true })
        expect(b.consoleErrors).toEqual([])
      } finally {
        await b.close()
      }
    },
  )

  it('walks the boundary with scripted GPS, survives closing the browser, finishes offline with the parcel’s area within 1 %', async () => {
    const profile = tempDir('qh-field-walk-')
    const pts = corners()
    const at = (i: number) => ({ latitude: pts[i]![1], longitude: pts[i]![0], accuracy: 3 })
    let b = await openPhone(profile, '/', { geolocation: at(0) })
    try {
      await lookUpOnMap(b.page)
      // With a lookup done, the browser's install offer (kept from page load) is made, and used once.
      const prevented = await b.page.evaluate(() => {
        const e = Object.assign(new Event('beforeinstallprompt', { cancelable: true }), {
          prompt: () => {
            ;(window as unknown as { prompted: boolean }).prompted = true
            return Promise.resolve()
          },
          userChoice: Promise.resolve({ outcome: 'accepted' }),
        })
        window.dispatchEvent(e)
        return e.defaultPrevented
      })
      expect(prevented).toBe(true)
      const offer = b.page.getByRole('region', { name: 'Cài ứng dụng' })
      await offer.getByRole('button', { name: 'Cài đặt' }).click()
      await expect.poll(() => b.page.evaluate(() => (window as unknown as { prompted?: boolean }).prompted)).toBe(true)
      await expect.poll(() => offer.count()).toBe(0)
      await b.page.getByTestId('result-card').getByRole('link', { name: 'Đi đo ranh' }).click()
      const start = b.page.getByRole('button', { name: 'Bắt đầu tại góc này' })
      await expect.poll(() => start.isEnabled(), { timeout: 20_000 }).toBe(true)
      await start.click()
      const count = b.page.getByTestId('walk-count')
      await expect.poll(() => count.innerText()).toBe('1')
      await b.context.setGeolocation(at(1))
      await expect.poll(() => b.page.getByTestId('walk-gps').getAttribute('data-lng')).toBe(String(at(1).longitude))
      await b.page.getByRole('button', { name: 'Ghi góc' }).click()
      await expect.poll(() => count.innerText()).toBe('2')
    } finally {
      await b.close()
    }

    // Reopened with the network gone: the walk is still there and goes on without it.
    b = await openPhone(profile, '/walk', { offline: true, geolocation: at(1) })
    try {
      const { page, context } = b
      const count = page.getByTestId('walk-count')
      await expect.poll(() => count.innerText(), { timeout: 20_000 }).toBe('2')
      for (let i = 2; i < pts.length; i++) {
        await context.setGeolocation(at(i))
        // The live position has moved to the new corner before it is recorded.
        await expect.poll(() => page.getByTestId('walk-gps').getAttribute('data-lng')).toBe(String(at(i).longitude))
        await page.getByRole('button', { name: 'Ghi góc' }).click()
        await expect.poll(() => count.innerText()).toBe(String(i + 1))
      }
      await page.screenshot({ path: join(shots, 'walk-phone-light.png'), fullPage: true })
      await page.getByRole('button', { name: 'Hoàn tất' }).click()
      const walked = Number(await page.getByTestId('walk-area').getAttribute('data-m2'))
      if (hasCs2cs) {
        const reference = shoelace(cs2csVn2000(pts, planning.location.vn2000.zone_meridian))
        expect(Math.abs(walked - reference) / reference).toBeLessThan(0.01)
      }
      expect(Math.abs(walked - planning.parcel.area_m2) / planning.parcel.area_m2).toBeLessThan(0.01)
      await expect.poll(() => page.getByTestId('walk-comparison').count(), { timeout: 10_000 }).toBe(1)
      expect(await page.getByTestId('walk-offset').innerText()).toMatch(/Lệch ranh lớn nhất: 0(,0)? m/)
      await page.screenshot({ path: join(shots, 'walk-result-phone-light.png'), fullPage: true })
      await page.emulateMedia({ colorScheme: 'dark' })
      await page.screenshot({ path: join(shots, 'walk-result-phone-dark.png'), fullPage: true })
      await page.setViewportSize({ width: 1280, height: 800 })
      await page.screenshot({ path: join(shots, 'walk-result-desktop-dark.png'), fullPage: true })
      await page.emulateMedia({ colorScheme: 'light' })
      await page.screenshot({ path: join(shots, 'walk-result-desktop-light.png'), fullPage: true })

      // The sketch of the same parcel opens offline too, from the history, its neighbours from the kept tiles.
      await page.goto(`${app.url}/sketch?parcel=${planning.parcel.id}`)
      await expect
        .poll(() => page.getByTestId('corner-table').locator('tbody tr').count(), { timeout: 20_000 })
        .toBe(pts.length)
      await expect
        .poll(() => page.getByTestId('sketch-neighbours').innerText(), { timeout: 30_000 })
        .not.toMatch(/Đang đọc/)
    } finally {
      await b.close()
    }
  })

  it('reaches the four places from the bottom bar by keyboard, the current one marked for screen readers', async () => {
    const b = await launch(phone)
    try {
      const { page } = b
      await page.goto(`${app.url}/valuation`)
      const nav = page.getByTestId('app-nav-bottom')
      await expect
        .poll(async () => (await nav.getByRole('link').allTextContents()).map((t) => t.trim()), { timeout: 30_000 })
        .toEqual(['Bản đồ', 'Định giá', 'Ngoại tuyến', 'Tài khoản'])
      // One navigation landmark for screen readers: the header's copy is hidden on phones.
      expect(await page.getByRole('navigation', { name: 'Điều hướng chính' }).count()).toBe(1)
      expect(await nav.getByRole('link', { name: 'Định giá' }).getAttribute('aria-current')).toBe('page')
      expect(await page.getByTestId('app-nav-bottom').isVisible()).toBe(true)
      expect(await page.getByTestId('app-nav-top').isVisible()).toBe(false)
      expect(await page.locator('.app-brand').innerText()).toBe('Quy hoạch VN')
      let focused = ''
      for (let i = 0; i < 60 && focused !== 'Ngoại tuyến'; i++) {
        await page.keyboard.press('Tab')
        focused = await page.evaluate(() =>
          document.activeElement?.closest('nav') ? (document.activeElement as HTMLElement).innerText : '',
        )
      }
      expect(focused).toBe('Ngoại tuyến')
      await page.keyboard.press('Enter')
      await expect.poll(() => new URL(page.url()).pathname).toBe('/offline')
      await expect.poll(() => nav.getByRole('link', { name: 'Ngoại tuyến' }).getAttribute('aria-current')).toBe('page')
      expect(await nav.getByRole('link', { name: 'Định giá' }).getAttribute('aria-current')).toBeNull()
      await nav.getByRole('link', { name: 'Tài khoản' }).click()
      await expect.poll(() => page.getByRole('heading', { name: 'Tài khoản' }).count()).toBe(1)
      await page.screenshot({ path: join(shots, 'account-phone-light.png') })
      await page.setViewportSize({ width: 1280, height: 800 })
      expect(await page.getByTestId('app-nav-top').isVisible()).toBe(true)
      await page.emulateMedia({ colorScheme: 'dark' })
      await page.screenshot({ path: join(shots, 'account-desktop-dark.png') })
    } finally {
      await b.close()
    }
  })
})
