import { mkdirSync, readFileSync } from 'node:fs'
import { resolve } from 'node:path'
import sharp from 'sharp'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import type { Page } from 'playwright-core'
import { toVn2000 } from '#core/geo/vn2000.ts'
import { foldVietnamese } from '#core/text/fold.ts'
import {
  desktop,
  launch,
  mapReady,
  paintedPixels,
  phone,
  pixelsNear,
  startApp,
  type Browser,
  type RunningApp,
} from './harness.ts'

const shots = resolve(import.meta.dirname, '../../out/e2e-map')
mkdirSync(shots, { recursive: true })

const PASSWORD = 'mat-khau-ban-do-1'
const uniqueEmail = (tag: string) =>
  `map-${tag}-${Date.now().toString(36)}${Math.random().toString(36).slice(2, 6)}@example.com`

type Viewport = { name: 'phone' | 'desktop'; opts: typeof phone | typeof desktop }
const viewports: Viewport[] = [
  { name: 'phone', opts: phone },
  { name: 'desktop', opts: desktop },
]

/** Metres per pixel at zoom z with 256-px Web Mercator tiles, on the ground at latitude `lat`. */
const groundResolution = (z: number, lat: number) =>
  ((2 * Math.PI * 6378137) / 256 / 2 ** z) * Math.cos((lat * Math.PI) / 180)

let app: RunningApp
const tokens: Record<Viewport['name'], string> = { phone: '', desktop: '' }

async function api<T>(
  path: string,
  init: { method?: string; json?: unknown; token?: string } = {},
): Promise<{ status: number; body: { data: T; meta: { code: string } } }> {
  const res = await fetch(`${app.url}${path}`, {
    method: init.method ?? 'GET',
    headers: {
      ...(init.json ? { 'Content-Type': 'application/json' } : {}),
      ...(init.token ? { Authorization: `Bearer ${init.token}` } : {}),
    },
    body: init.json ? JSON.stringify(init.json) : undefined,
  })
  return { status: res.status, body: (await res.json()) as { data: T; meta: { code: string } } }
}

async function account(tag: string): Promise<string> {
  const email = uniqueEmail(tag)
  expect(
    (await api('/api/auth/register', { method: 'POST', json: { name: 'Người Đo Đạc', email, password: PASSWORD } }))
      .status,
  ).toBe(201)
  const login = await api<{ access_token: string }>('/api/auth/login', {
    method: 'POST',
    json: { email, password: PASSWORD },
  })
  expect(login.status).toBe(200)
  return login.body.data.access_token
}

type SearchHit = { kind: string; label: string; lat: number; lng: number }
type Planning = { parcel: { sheet_no: number; parcel_no: number } }

async function withMap(
  v: Viewport,
  opts: {
    hash: string
    loggedIn: boolean
    geolocation?: { latitude: number; longitude: number; accuracy: number }
    expectedConsole?: RegExp
    serviceWorkers?: 'block'
  },
  run: (b: Browser, page: Page) => Promise<void>,
) {
  const b = await launch({
    ...v.opts,
    serviceWorkers: opts.serviceWorkers,
    ...(opts.geolocation ? { permissions: ['geolocation'], geolocation: opts.geolocation } : {}),
  })
  try {
    if (opts.loggedIn) {
      await b.context.addInitScript((token) => {
        localStorage.setItem(
          'qh.session',
          JSON.stringify({
            userName: 'Người Đo Đạc',
            token,
            expiresAt: '2099-01-01T00:00:00+07:00',
            isLogin: true,
            isOpenLogin: false,
          }),
        )
      }, tokens[v.name])
    }
    await b.page.goto(`${app.url}/demo${opts.hash}`)
    await expect.poll(() => b.page.getByTestId('map').getAttribute('data-ready'), { timeout: 30_000 }).toBe('true')
    await run(b, b.page)
    expect(b.consoleErrors.filter((e) => !opts.expectedConsole?.test(e))).toEqual([])
  } finally {
    await b.close()
  }
}

/** Painted pixels and distinct colours across the map's canvases (sampled). */
function canvasStats(page: Page) {
  return page.evaluate(() => {
    const colours = new Set<string>()
    let painted = 0
    for (const c of document.querySelectorAll<HTMLCanvasElement>('[data-testid=map] canvas')) {
      const ctx = c.getContext('2d')
      if (!ctx || c.width === 0 || c.height === 0) continue
      const d = ctx.getImageData(0, 0, c.width, c.height).data
      for (let i = 0; i < d.length; i += 4 * 53) {
        if (d[i + 3]! === 0) continue
        painted += 1
        colours.add(`${d[i]! >> 3},${d[i + 1]! >> 3},${d[i + 2]! >> 3}`)
      }
    }
    return { painted, colours: colours.size }
  })
}

/** The view in the address: `#/{lat}/{lng}/{zoom}` then `/sel/…` and `/pin/…`. */
function hashState(url: string) {
  const parts = new URL(url).hash.replace(/^#\//, '').split('/')
  const point = (key: string) => {
    const i = parts.indexOf(key)
    if (i < 0) return undefined
    const [lat, lng] = parts[i + 1]!.split(',').map(Number)
    return { lat: lat!, lng: lng! }
  }
  return { lat: Number(parts[0]), lng: Number(parts[1]), zoom: Number(parts[2]), sel: point('sel'), pin: point('pin') }
}

async function mapCentre(page: Page) {
  const box = (await page.getByTestId('map').boundingBox())!
  return { x: box.x + box.width / 2, y: box.y + box.height / 2 }
}

/**
 * Every address the page writes from now on (the map writes its view, selection and pin with replaceState), in
 * order: what the screen chose and dropped along the way, which the final address alone does not show.
 */
async function recordAddresses(page: Page): Promise<string[]> {
  const written: string[] = []
  await page.exposeFunction('qhAddressWritten', (hash: string) => void written.push(hash))
  await page.evaluate(() => {
    const replace = history.replaceState.bind(history)
    history.replaceState = (data, unused, url) => {
      replace(data, unused, url)
      ;(window as unknown as { qhAddressWritten(h: string): void }).qhAddressWritten(location.hash)
    }
  })
  return written
}

async function tap(page: Page, v: Viewport, x: number, y: number) {
  if (v.name === 'phone') await page.touchscreen.tap(x, y)
  else await page.mouse.click(x, y)
}

/** Where a point stands on screen in a view (#/{lat}/{lng}/{zoom}) of a map element at `box`. */
function pixelOf(
  view: { lat: number; lng: number; zoom: number },
  p: { lat: number; lng: number },
  box: { x: number; y: number; width: number; height: number },
) {
  const R = 6378137
  const mx = (lng: number) => (R * lng * Math.PI) / 180
  const my = (lat: number) => R * Math.log(Math.tan(Math.PI / 4 + (lat * Math.PI) / 360))
  const res = (2 * Math.PI * R) / 256 / 2 ** view.zoom
  return {
    x: box.x + box.width / 2 + (mx(p.lng) - mx(view.lng)) / res,
    y: box.y + box.height / 2 - (my(p.lat) - my(view.lat)) / res,
  }
}

describe('the map screen in Chromium', () => {
  let target: SearchHit
  beforeAll(async () => {
    app = await startApp()
    tokens.phone = await account('phone')
    tokens.desktop = await account('desktop')
    const hits = await api<SearchHit[]>(`/api/search?q=${encodeURIComponent('tờ 1 thửa 5')}&limit=1`, {
      token: tokens.phone,
    })
    target = hits.body.data[0]!
    expect(target.label).toBe('Tờ 1, thửa 5')
  })
  afterAll(async () => {
    await app?.stop()
  })

  it('asks an anonymous user to log in on tap, then shows the lookup without a second tap', async () => {
    const email = uniqueEmail('anon')
    expect(
      (await api('/api/auth/register', { method: 'POST', json: { name: 'Khách', email, password: PASSWORD } })).status,
    ).toBe(201)
    await withMap(viewports[0]!, { hash: `#/${target.lat}/${target.lng}/19`, loggedIn: false }, async (b, page) => {
      const c = await mapCentre(page)
      await tap(page, viewports[0]!, c.x, c.y)
      const dialog = page.getByRole('dialog', { name: 'Đăng nhập' })
      await expect.poll(() => dialog.count(), { timeout: 15_000 }).toBe(1)
      await page.screenshot({ path: `${shots}/login-asked-phone.png` })
      await dialog.getByRole('textbox', { name: 'E-mail' }).fill(email)
      await dialog.getByRole('textbox', { name: 'Mật khẩu', exact: true }).fill(PASSWORD)
      await dialog.getByRole('button', { name: 'Đăng nhập' }).click()
      await expect.poll(() => page.getByTestId('result-title').textContent(), { timeout: 20_000 }).toBe('Tờ 1, thửa 5')
      expect(b.consoleErrors).toEqual([])
    })
  })

  it('shows Việt Nam’s outline, the provinces and Hoàng Sa and Trường Sa at every zoom where the basemap has no data, and nothing over the open sea', async () => {
    const openAt = async (page: Page, lat: number, lng: number, zoom: number) => {
      await page.goto('about:blank')
      await page.goto(`${app.url}/demo#/${lat}/${lng}/${zoom}`)
      await mapReady(page)
    }
    // The outline's land tint and the archipelagos' label colour (createNationalStyle), counted in a screenshot of the map.
    const LAND = { r: 244, g: 239, b: 228 }
    const LABEL = { r: 124, g: 45, b: 18 }
    await withMap(viewports[0]!, { hash: '#/16.2/106.5/6', loggedIn: false }, async (_b, page) => {
      await expect.poll(() => pixelsNear(page, LAND, 3), { timeout: 30_000 }).toBeGreaterThan(10_000)
      await page.screenshot({ path: `${shots}/national-z6-phone.png` })
      // Hà Nội (no data in the demo) at street zooms: the land tint fills the screen, as it does below z10.
      for (const zoom of [13, 18]) {
        await openAt(page, 21.03, 105.85, zoom)
        await expect.poll(() => pixelsNear(page, LAND, 3), { timeout: 30_000 }).toBeGreaterThan(100_000)
      }
      // Both archipelagos, named as Việt Nam's, far from any data.
      for (const [lat, lng, zoom] of [
        [16.45, 112.05, 12],
        [10.05, 113.75, 9],
      ] as const) {
        await openAt(page, lat, lng, zoom)
        await expect.poll(() => pixelsNear(page, LABEL, 40), { timeout: 30_000 }).toBeGreaterThan(100)
      }
      await page.screenshot({ path: `${shots}/national-truong-sa-z9-phone.png` })
      // The open Pacific: the same measures find nothing there, so the counts above are the outline's.
      await openAt(page, 5, -140, 12)
      expect(await paintedPixels(page)).toBeLessThan(100)
      expect(await pixelsNear(page, LAND, 3)).toBe(0)
    })
  })

  it('explains in Vietnamese when the browser refuses the position', async () => {
    await withMap(viewports[0]!, { hash: `#/${target.lat}/${target.lng}/15`, loggedIn: false }, async (_b, page) => {
      await page.getByTestId('gps-button').click()
      await expect.poll(() => page.getByTestId('gps-error').count(), { timeout: 15_000 }).toBe(1)
      expect(await page.getByTestId('gps-error').innerText()).toMatch(/Không định vị được.*chặn quyền truy cập vị trí/s)
      await page.screenshot({ path: `${shots}/gps-denied-phone.png` })
    })
  })

  describe('with a mouse and keyboard', () => {
    const v = viewports[1]!

    it('outlines the parcel under the mouse without asking the server, and drops a pin on a long press', async () => {
      await withMap(v, { hash: `#/${target.lat}/${target.lng}/19`, loggedIn: true }, async (_b, page) => {
        const api: string[] = []
        page.on('request', (r) => {
          // The day's count read once at start may come after the map is ready; it is no parcel lookup.
          if (r.url().includes('/api/') && !r.url().includes('/api/auth/usage')) api.push(r.url())
        })
        const addresses = await recordAddresses(page)
        const c = await mapCentre(page)
        const viewport = page.locator('.ol-viewport')
        let step = 0
        await expect
          .poll(
            async () => {
              // Moves keep coming while the parcel tiles load, as a real mouse's would.
              for (let i = 0; i < 5; i++) await page.mouse.move(c.x + ((step++ % 7) - 3), c.y)
              return viewport.evaluate((el) => (el as HTMLElement).style.cursor)
            },
            { timeout: 15_000 },
          )
          .toBe('pointer')
        await page.screenshot({ path: `${shots}/hover-desktop.png` })
        expect(api).toEqual([])
        // Held until the pin shows (the hold fires while the button is still down), then a second hold
        // elsewhere: the pin moving there comes after a tap the first hold might have let through.
        const pinWritten = () => JSON.stringify(hashState(`${app.url}/demo${addresses.at(-1) ?? ''}`).pin)
        const hold = async (x: number, y: number) => {
          const before = pinWritten()
          await page.mouse.move(x, y)
          await page.mouse.down()
          await expect.poll(pinWritten).not.toBe(before)
          await page.mouse.up()
        }
        await hold(c.x, c.y)
        expect(await page.getByTestId('pin-bar').count()).toBe(1)
        await hold(c.x + 40, c.y + 40)
        // A tap after the holds is looked up; any lookup a hold let through would have been addressed before it.
        await page.mouse.click(c.x - 40, c.y + 40)
        await expect.poll(() => page.getByTestId('result-title').count(), { timeout: 20_000 }).toBe(1)
        const sel = hashState(page.url()).sel!
        const chosen = addresses.map((a) => hashState(`${app.url}/demo${a}`).sel).filter((p) => p !== undefined)
        expect(chosen.every((p) => p.lat === sel.lat && p.lng === sel.lng)).toBe(true)
        expect(api.filter((u) => u.includes('/api/planning'))).toHaveLength(1)
      })
    })

    it('pans 80 px per arrow key and zooms with + and −', async () => {
      const z = 17
      await withMap(v, { hash: `#/${target.lat}/${target.lng}/${z}`, loggedIn: false }, async (_b, page) => {
        await page.getByTestId('map').focus()
        const before = hashState(page.url())
        await page.keyboard.press('ArrowRight')
        const degPerPx = 360 / (256 * 2 ** z)
        await expect
          .poll(() => Math.round((hashState(page.url()).lng - before.lng) / degPerPx), { timeout: 5000 })
          .toBe(80)
        await page.keyboard.press('+')
        await expect.poll(() => hashState(page.url()).zoom, { timeout: 5000 }).toBe(z + 1)
      })
    })

    it('shows the place, that there is no planning data and what data there is, for a tap in Hà Nội, and finds today’s ward from an old address', async () => {
      // The prepared data directory held the national boundaries already: this start did not load them again.
      expect(app.output()).not.toContain('national boundaries loaded')
      // Chromium logs the planning lookup's answer, 400 LocationIncorrect outside the data or 404 NotFound where
      // no parcel and no zone lie, both of which the card answers in words.
      await withMap(
        v,
        { hash: '#/21.0285/105.8542/15', loggedIn: true, expectedConsole: /status of 40[04]/ },
        async (_b, page) => {
          await expect.poll(() => page.getByTestId('map-no-data').count(), { timeout: 20_000 }).toBe(1)
          expect(await page.getByTestId('map-no-data').innerText()).toContain(
            'Chưa có dữ liệu quy hoạch ở khu vực này.',
          )
          // The account made a counted lookup in an earlier test: this tap must leave its count as it was.
          const usage = async () =>
            (await api<{ count: number }>('/api/auth/usage', { token: tokens.desktop })).body.data.count
          const countBefore = await usage()
          const c = await mapCentre(page)
          await page.mouse.click(c.x, c.y)
          const card = page.getByTestId('result-no-data')
          await expect.poll(() => card.count(), { timeout: 20_000 }).toBe(1)
          expect(await card.getByRole('heading').first().innerText()).toBe('Phường Hoàn Kiếm, TP. Hà Nội')
          expect(await page.getByTestId('result-place-before').innerText()).toContain('Hàng Trống')
          expect(await page.getByTestId('no-data-text').innerText()).toBe('Chưa có dữ liệu quy hoạch ở khu vực này.')
          expect(await page.getByTestId('server-data').innerText()).toContain('Phường Gia An')
          expect(await page.locator('.mantine-Notification-root').count()).toBe(0)
          expect(await usage()).toBe(countBefore)
          await page.screenshot({ path: `${shots}/no-data-hanoi-desktop.png` })

          const box = page.getByRole('combobox', { name: 'Tìm địa chỉ, tên đường hoặc tờ/thửa' })
          await box.fill('phường 12 gò vấp')
          const hit = page.getByRole('option', { name: /Phường An Hội Tây/ }).first()
          await expect.poll(() => hit.count(), { timeout: 15_000 }).toBe(1)
          expect(await hit.innerText()).toContain('Trước 1/7/2025: Phường 12, Quận Gò Vấp')
          await box.press('Enter')
          // Today's ward in TP. Hồ Chí Minh, pinned, not looked up; the card of Hoàn Kiếm closed.
          await expect.poll(() => hashState(page.url()).pin?.lat ?? 0, { timeout: 15_000 }).toBeLessThan(11)
          await expect.poll(() => card.count()).toBe(0)
          await page.screenshot({ path: `${shots}/old-address-desktop.png` })

          // The way to the data: the card's button takes the map there, and the note goes.
          await page.goto(`${app.url}/demo#/21.0285/105.8542/15`)
          await mapReady(page)
          await page.mouse.click(c.x, c.y)
          await card.getByRole('button', { name: 'Tới vùng có dữ liệu' }).click()
          await expect.poll(() => hashState(page.url()).lat, { timeout: 15_000 }).toBeLessThan(11)
          await expect.poll(() => page.getByTestId('map-no-data').count(), { timeout: 15_000 }).toBe(0)
        },
      )
    })

    it('shows the place and that there is no planning data, with no yellow toast, for a tap inside the data where the server finds no parcel', async () => {
      const place = await api<{ ward: string }>(`/api/places/at?lat=${target.lat}&lng=${target.lng}`, {
        token: tokens.desktop,
      })
      expect(place.status).toBe(200)
      // Chromium logs every 404 response, this one included. The answer below is stubbed with page.route, which a
      // service worker that has claimed the page bypasses now and then, so this page runs without one.
      await withMap(
        v,
        {
          hash: `#/${target.lat}/${target.lng}/19`,
          loggedIn: true,
          expectedConsole: /status of 404/,
          serviceWorkers: 'block',
        },
        async (_b, page) => {
          // The demo data has a parcel nearly everywhere (roads are parcels too), so the server's NotFound
          // answer is played back here exactly as the contract writes it.
          await page.route('**/api/planning?**', (route) =>
            route.fulfill({
              status: 404,
              contentType: 'application/json; charset=utf-8',
              body: JSON.stringify({
                message: 'Không tìm thấy thửa đất tại vị trí này.',
                meta: { code: 'NotFound', status: 'NG' },
                data: null,
              }),
            }),
          )
          const c = await mapCentre(page)
          await page.mouse.click(c.x, c.y)
          const card = page.getByTestId('result-no-data')
          await expect.poll(() => card.count(), { timeout: 20_000 }).toBe(1)
          expect(await card.getByRole('heading').first().innerText()).toBe(`${place.body.data.ward}, TP. Hồ Chí Minh`)
          expect(await page.getByTestId('no-data-text').innerText()).toBe('Chưa có dữ liệu quy hoạch ở khu vực này.')
          expect(await page.locator('.mantine-Notification-root').count()).toBe(0)
          await page.screenshot({ path: `${shots}/not-found-in-data-desktop.png` })
        },
      )
    })
  })

  describe.each(viewports)('at $name size', (v) => {
    it('draws the basemap, planning and parcel tiles from the server', async () => {
      const tiles: { layer: string; status: number }[] = []
      await withMap(v, { hash: `#/${target.lat}/${target.lng}/17`, loggedIn: false }, async (b, page) => {
        page.on('response', (r) => {
          const m = /\/tiles\/(basemap|planning|parcels)\/\d+\/\d+\/\d+\.pbf/.exec(r.url())
          if (m) tiles.push({ layer: m[1]!, status: r.status() })
        })
        await page.reload()
        await expect
          .poll(() => new Set(tiles.filter((t) => t.status === 200).map((t) => t.layer)).size, { timeout: 30_000 })
          .toBe(3)
        await expect.poll(async () => (await canvasStats(page)).colours, { timeout: 30_000 }).toBeGreaterThan(12)
        expect(tiles.every((t) => t.status === 200 || t.status === 204 || t.status === 304)).toBe(true)
        await page.screenshot({ path: `${shots}/tiles-${v.name}.png` })
        expect(b.consoleErrors).toEqual([])
        // Every visible control on the map is at least 44 × 44 px, for a thumb in the field.
        const small = await page.evaluate(() =>
          [...document.querySelectorAll<HTMLElement>('.qh-map button, .qh-map a, .qh-map input, .qh-map select')]
            .map((el) => ({ el, r: el.getBoundingClientRect() }))
            .filter(
              ({ el, r }) =>
                r.width > 0 && r.height > 0 && getComputedStyle(el).visibility !== 'hidden' && !el.closest('[hidden]'),
            )
            .filter(({ el, r }) =>
              el instanceof HTMLInputElement && el.type === 'text' ? r.height < 44 : r.width < 44 || r.height < 44,
            )
            .map(
              ({ el, r }) =>
                `${el.tagName} ${el.getAttribute('aria-label') ?? el.textContent} ${Math.round(r.width)}×${Math.round(r.height)}`,
            ),
        )
        expect(small).toEqual([])
      })
    })

    it('taps a parcel and shows the card with the sheet and parcel the API gives for that point', async () => {
      await withMap(v, { hash: `#/${target.lat}/${target.lng}/19`, loggedIn: true }, async (_b, page) => {
        await page.waitForTimeout(500)
        const c = await mapCentre(page)
        await tap(page, v, c.x, c.y)
        const title = page.getByTestId('result-title')
        await expect.poll(() => title.count(), { timeout: 20_000 }).toBe(1)
        await expect.poll(() => hashState(page.url()).sel).toBeDefined()
        const sel = hashState(page.url()).sel!
        const truth = await api<Planning>(`/api/planning?lat=${sel.lat}&lng=${sel.lng}`, { token: tokens[v.name] })
        expect(truth.status).toBe(200)
        expect(await title.innerText()).toBe(
          `Tờ ${truth.body.data.parcel.sheet_no}, thửa ${truth.body.data.parcel.parcel_no}`,
        )
        expect(await page.getByTestId('reserve-verdict').innerText()).toMatch(/vướng quy hoạch lộ giới/i)
        expect(await page.getByText('Dữ liệu mô phỏng').count()).toBeGreaterThan(0)
        const valuation = new URL(
          (await page.getByRole('link', { name: 'Định giá thửa này' }).getAttribute('href'))!,
          app.url,
        )
        expect(valuation.pathname).toBe('/valuation')
        expect([valuation.searchParams.get('sheet'), valuation.searchParams.get('parcel')]).toEqual([
          String(truth.body.data.parcel.sheet_no),
          String(truth.body.data.parcel.parcel_no),
        ])
        // The result went into the lookup history that the offline screens and valuation read.
        await expect
          .poll(() =>
            page.evaluate(
              () =>
                new Promise<number>((done) => {
                  const open = indexedDB.open('qh-history')
                  open.onsuccess = () => {
                    const count = open.result.transaction('history').objectStore('history').count()
                    count.onsuccess = () => done(count.result)
                  }
                  open.onerror = () => done(-1)
                }),
            ),
          )
          .toBe(1)
        await page.screenshot({ path: `${shots}/card-${v.name}.png` })
      })
    })

    it('searches "nguyen" as you type and flies to the chosen street', async () => {
      const hits = (await api<SearchHit[]>('/api/search?q=nguyen&limit=8', { token: tokens[v.name] })).body.data
      expect(hits.length).toBeGreaterThan(0)
      await withMap(v, { hash: `#/${target.lat}/${target.lng}/15`, loggedIn: true }, async (_b, page) => {
        const box = page.getByRole('combobox', { name: 'Tìm địa chỉ, tên đường hoặc tờ/thửa' })
        await box.fill('nguyen')
        const options = page.getByRole('option')
        await expect.poll(() => options.count(), { timeout: 15_000 }).toBeGreaterThan(0)
        for (const label of await options.allInnerTexts()) expect(foldVietnamese(label)).toContain('nguyen')
        await page.screenshot({ path: `${shots}/search-${v.name}.png` })
        await box.press('ArrowDown')
        expect(await box.getAttribute('aria-activedescendant')).toBeTruthy()
        await box.press('ArrowUp')
        await box.press('Enter')
        const first = hits[0]!
        await expect
          .poll(
            () => {
              const h = hashState(page.url())
              return Math.abs(h.lat - first.lat) < 1e-5 && Math.abs(h.lng - first.lng) < 1e-5
            },
            { timeout: 15_000 },
          )
          .toBe(true)
        await page.screenshot({ path: `${shots}/search-flown-${v.name}.png` })
      })
    })

    it('finds a parcel by "tờ/thửa" and looks it up', async () => {
      await withMap(v, { hash: `#/${target.lat}/${target.lng}/15`, loggedIn: true }, async (_b, page) => {
        const box = page.getByRole('combobox', { name: 'Tìm địa chỉ, tên đường hoặc tờ/thửa' })
        await box.fill(v.name === 'phone' ? 'to 1 thua 5' : '1/5')
        await expect
          .poll(() => page.getByRole('option', { name: /Tờ 1, thửa 5/ }).count(), { timeout: 15_000 })
          .toBeGreaterThan(0)
        await box.press('Enter')
        await expect
          .poll(() => page.getByTestId('result-title').textContent(), { timeout: 20_000 })
          .toBe('Tờ 1, thửa 5')
        await page.screenshot({ path: `${shots}/sheet-parcel-${v.name}.png` })
      })
    })

    it('shows the blue dot and the accuracy badge for a granted position', async () => {
      const position = { latitude: target.lat + 0.0004, longitude: target.lng + 0.0006, accuracy: 8 }
      await withMap(
        v,
        { hash: `#/${target.lat}/${target.lng}/15`, loggedIn: false, geolocation: position },
        async (_b, page) => {
          await page.getByTestId('gps-button').click()
          await expect
            .poll(() => page.getByTestId('gps-accuracy').textContent(), { timeout: 15_000 })
            .toContain('± 8 m')
          await expect
            .poll(
              () => {
                const h = hashState(page.url())
                return Math.abs(h.lat - position.latitude) < 1e-5 && Math.abs(h.lng - position.longitude) < 1e-5
              },
              { timeout: 15_000 },
            )
            .toBe(true)
          const c = await mapCentre(page)
          // The dot is GPS blue (#1a73e8) at the centre the map follows, once the map has drawn it there.
          const blue = [0x1a, 0x73, 0xe8]
          await expect
            .poll(
              async () => {
                const png = await page.screenshot({ path: `${shots}/gps-${v.name}.png` })
                const { data, info } = await sharp(png).raw().toBuffer({ resolveWithObject: true })
                const at = (Math.round(c.y) * info.width + Math.round(c.x)) * info.channels
                return [0, 1, 2].every((k) => Math.abs(data[at + k]! - blue[k]!) <= 8)
              },
              { timeout: 10_000 },
            )
            .toBe(true)
        },
      )
    })

    it('goes to typed VN-2000 coordinates and lands on that place', async () => {
      const place = { lat: target.lat - 0.0012, lng: target.lng + 0.0021 }
      const grid = toVn2000(place.lat, place.lng, 105.75)
      await withMap(v, { hash: `#/${target.lat}/${target.lng}/15`, loggedIn: false }, async (_b, page) => {
        // Phones fold the panel into a chip that opens straight onto the form; desktops show the readout with a button.
        if (v.name === 'phone') await page.getByTestId('vn2000-chip').click()
        else await page.getByTestId('goto-open').click()
        await expect.poll(() => page.getByTestId('meridian').inputValue()).toBe('auto')
        const x = Number(grid.x.toFixed(2))
        const y = Number(grid.y.toFixed(2))
        await page.getByTestId('goto-input').fill(`X ${x} Y ${y}`)
        await page.getByRole('button', { name: 'Đi', exact: true }).click()
        await expect
          .poll(
            () => {
              const h = hashState(page.url())
              return (
                h.pin !== undefined &&
                Math.abs(h.pin.lat - place.lat) < 2e-6 &&
                Math.abs(h.pin.lng - place.lng) < 2e-6 &&
                Math.abs(h.lat - place.lat) < 1e-5
              )
            },
            { timeout: 15_000 },
          )
          .toBe(true)
        const metres = (n: number, digits: number) =>
          new Intl.NumberFormat('vi-VN', { minimumFractionDigits: digits, maximumFractionDigits: digits }).format(n)
        if (v.name === 'phone') {
          // The panel folds back so the place shows; the chip reads the pin's grid position.
          // What it shows; screen readers also hear whose position it is and the full figures.
          expect((await page.getByTestId('vn2000-chip').innerText()).split('—')[0]!.trim()).toBe(
            `X ${metres(Math.trunc(x), 0)} · Y ${metres(Math.trunc(y), 0)}`,
          )
        } else {
          expect(await page.getByTestId('goto-message').innerText()).toMatch(/^Đã đến VN-2000/)
          expect(await page.getByTestId('vn2000-x').innerText()).toBe(`${metres(x, 2)} m`)
        }
        await page.screenshot({ path: `${shots}/goto-${v.name}.png` })
      })
    })

    it('measures a drawn square with its true ground area', async () => {
      const z = 18
      await withMap(v, { hash: `#/${target.lat}/${target.lng}/${z}`, loggedIn: false }, async (_b, page) => {
        await page.getByTestId('measure-button').click()
        // The panel is a lazy chunk: a second or more on a busy machine.
        await expect.poll(() => page.getByTestId('measure-panel').count(), { timeout: 10_000 }).toBe(1)
        // The square is drawn round the map's centre: the panel stays compact (220 px at most, about a
        // quarter of a phone's screen, however many points are down) and lets taps on anything but its buttons
        // through to the map, so every corner, the fourth too, lands on the map itself.
        // Free drawing: the corners go where the taps are, not onto the parcels round the centre.
        await page.getByTestId('measure-snap').click()
        expect(await page.getByTestId('measure-snap').getAttribute('aria-pressed')).toBe('false')
        const c = await mapCentre(page)
        const half = 60
        const cy = c.y
        const compact = async () => {
          const panel = (await page.getByTestId('measure-panel').boundingBox())!
          expect(panel.height, 'the measure panel stays compact').toBeLessThanOrEqual(220)
          const hint = (await page.getByTestId('measure-panel').getByRole('status').boundingBox())!
          const under = await page.evaluate(
            ([x, y]) =>
              document.elementFromPoint(x!, y!)?.closest('[data-testid=map] .ol-layers, .qh-floating')?.className,
            [hint.x + 4, hint.y + hint.height / 2],
          )
          expect(under, 'a tap on the panel’s text reaches the map').toMatch(/ol-layers/)
        }
        await compact()
        const corners = [
          [c.x - half, cy - half],
          [c.x + half, cy - half],
          [c.x + half, cy + half],
          [c.x - half, cy + half],
          [c.x - half, cy - half],
        ] as const
        for (const [x, y] of corners) {
          const hit = await page.evaluate(
            ([x, y]) =>
              document.elementFromPoint(x!, y!)?.closest('[data-testid=map] .ol-layers, .qh-floating')?.className ?? '',
            [x, y],
          )
          expect(hit, `the corner at ${x},${y} is on the map, not under a control`).toMatch(/ol-layers/)
          await page.mouse.click(x, y)
          await page.waitForTimeout(150)
        }
        await compact()
        const result = page.getByTestId('measure-result')
        await expect.poll(() => result.count(), { timeout: 10_000 }).toBe(1)
        const text = await result.innerText()
        const m2 = Number(/^([\d.]+(?:,\d+)?) m²/.exec(text)![1]!.replace(/\./g, '').replace(',', '.'))
        const side = 2 * half * groundResolution(z, target.lat)
        expect(Math.abs(m2 - side * side) / (side * side)).toBeLessThan(0.01)
        // Each side's length, as on a survey sketch.
        const sides = (await page.getByTestId('measure-sides').innerText()).replace(/^Các cạnh: /, '').split(' · ')
        expect(sides).toHaveLength(4)
        for (const s of sides)
          expect(
            Math.abs(Number(s.replace(/ m$/, '').replace(/\./g, '').replace(',', '.')) - side) / side,
          ).toBeLessThan(0.02)
        await page.screenshot({ path: `${shots}/measure-${v.name}.png` })
        // "Xong" closes the panel and keeps the drawing; opened again, the panel still has it.
        await page.getByTestId('measure-panel').getByRole('button', { name: 'Xong' }).click()
        await expect.poll(() => page.getByTestId('measure-panel').count()).toBe(0)
        await page.screenshot({ path: `${shots}/measure-kept-${v.name}.png` })
        await page.getByTestId('measure-button').click()
        await expect.poll(() => page.getByTestId('measure-result').textContent(), { timeout: 10_000 }).toBe(text)
      })
    })

    it('puts a tap near a parcel’s corner exactly on it, and keeps the measurement named through a reload, renamed, deleted and undone, shown again and exported', async () => {
      const token = await account(`measure-${v.name}`)
      type Outline =
        { type: 'Polygon'; coordinates: number[][][] } | { type: 'MultiPolygon'; coordinates: number[][][][] }
      const planning = await api<{ parcel: { geometry: Outline } }>(
        `/api/planning?lat=${target.lat}&lng=${target.lng}`,
        {
          token,
        },
      )
      const shape = planning.body.data.parcel.geometry
      const ring = (shape.type === 'Polygon' ? shape.coordinates[0] : shape.coordinates[0]![0])!
      const [a, b] = [ring[0]!, ring[1]!].map(([lng, lat]) => ({ lat: lat!, lng: lng! }))
      const view = { lat: (a!.lat + b!.lat) / 2, lng: (a!.lng + b!.lng) / 2, zoom: 19 }
      const name = 'Cạnh thửa 5, phía trước'
      await withMap(v, { hash: `#/${view.lat}/${view.lng}/${view.zoom}`, loggedIn: false }, async (_b, page) => {
        await page.getByTestId('measure-button').click()
        await expect.poll(() => page.getByTestId('measure-panel').count(), { timeout: 10_000 }).toBe(1)
        await page.getByTestId('measure-panel').getByRole('button', { name: 'Chiều dài' }).click()
        const box = (await page.getByTestId('map').boundingBox())!
        // Each tap 4 px right of and above the corner (about a metre on the ground at zoom 19): the ring shows
        // the corner is near once the parcels' tiles are drawn, and the point lands on it.
        for (const corner of [a!, b!]) {
          const p = pixelOf(view, corner, box)
          await expect
            .poll(
              async () => {
                await page.mouse.move(p.x + 4, p.y - 4)
                return page.getByTestId('measure-snapped').textContent()
              },
              { timeout: 15_000 },
            )
            .toBe('Bám góc thửa')
          await tap(page, v, p.x + 4, p.y - 4)
          await page.waitForTimeout(150)
        }
        await page.getByRole('button', { name: 'Kết thúc hình' }).click()
        const text = await page.getByTestId('measure-result').innerText()
        await page.getByTestId('measure-save').click()
        await page.getByTestId('measure-name').fill(name)
        await page.getByTestId('measure-name-ok').click()
        await expect.poll(() => page.getByTestId('measure-saved-open').innerText()).toBe('Đã lưu (1)')

        // Kept on the device: after a reload the list has it, with its figure.
        await page.reload()
        await mapReady(page)
        await page.getByTestId('measure-button').click()
        await page.getByTestId('measure-saved-open').click({ timeout: 10_000 })
        const rows = page.getByTestId('saved-measure')
        await expect.poll(() => rows.count()).toBe(1)
        expect(await rows.getByTestId('saved-measure-name').innerText()).toBe(name)
        expect(await rows.innerText()).toContain(text)
        await page.screenshot({ path: `${shots}/measures-saved-${v.name}.png` })

        // The export's line runs from corner to corner, to the centimetre (the tiles keep about one).
        const [file] = await Promise.all([
          page.waitForEvent('download'),
          page.getByRole('button', { name: 'Tải GeoJSON' }).click(),
        ])
        const fc = JSON.parse(readFileSync((await file.path())!, 'utf8')) as {
          features: { geometry: { coordinates: number[][] }; properties: { name: string } }[]
        }
        expect(fc.features[0]!.properties.name).toBe(name)
        const line = fc.features[0]!.geometry.coordinates
        expect(line).toHaveLength(2)
        line.forEach(([lng, lat], i) => {
          const want = [a!, b!][i]!
          const off = Math.hypot(
            (lat! - want.lat) * 110_600,
            (lng! - want.lng) * 111_320 * Math.cos((want.lat * Math.PI) / 180),
          )
          expect(off, `point ${i + 1} lies on the parcel’s corner`).toBeLessThan(0.05)
        })

        // Renamed; deleted, then put back from the line that says so.
        await page.getByRole('button', { name: `Đổi tên “${name}”` }).click()
        await page.getByTestId('measure-name').fill('Mặt tiền')
        await page.getByTestId('measure-name-ok').click()
        await expect.poll(() => rows.getByTestId('saved-measure-name').innerText()).toBe('Mặt tiền')
        await page.getByRole('button', { name: 'Xoá “Mặt tiền”' }).click()
        await expect.poll(() => rows.count()).toBe(0)
        expect(await page.getByTestId('measure-deleted').innerText()).toMatch(/^Đã xoá “Mặt tiền”\./)
        await page.getByTestId('measure-undo').click()
        await expect.poll(() => rows.count()).toBe(1)

        // Shown again on the map, with its figure in the panel.
        await page.getByRole('button', { name: 'Xem “Mặt tiền” trên bản đồ' }).click()
        await expect.poll(() => page.getByTestId('saved-measures').count()).toBe(0)
        await expect.poll(() => page.getByTestId('measure-result').innerText()).toBe(text)
        await page.screenshot({ path: `${shots}/measures-shown-${v.name}.png` })
      })
    })

    it('opens a shared link with its parcel framed above this screen’s own sheet and the sender’s VN-2000, looking it up only when logged in; a link typed into the open tab moves the map', async () => {
      // The sender, on the other kind of screen, looks up the map's centre, a point with more decimals
      // than a link carries; their sheet or side panel shifts their view.
      const sender = viewports.find((o) => o.name !== v.name)!
      const sent = { lat: target.lat + 0.0000123, lng: target.lng + 0.0000098 }
      let link = ''
      let grid = { x: '', y: '' }
      await withMap(sender, { hash: `#/${sent.lat}/${sent.lng}/19`, loggedIn: true }, async (_b, page) => {
        await page.getByTestId('map').focus()
        await page.keyboard.press('Enter')
        await expect
          .poll(() => page.getByTestId('result-title').textContent(), { timeout: 20_000 })
          .toBe('Tờ 1, thửa 5')
        grid = {
          x: (await page.getByTestId('result-vn2000-x').textContent())!,
          y: (await page.getByTestId('result-vn2000-y').textContent())!,
        }
        await expect.poll(() => hashState(page.url()).sel).toBeDefined()
        link = new URL(page.url()).hash
      })
      await withMap(v, { hash: link, loggedIn: false }, async (_b, page) => {
        await expect
          .poll(() => page.getByRole('button', { name: 'Tra cứu thửa này' }).count(), { timeout: 15_000 })
          .toBe(1)
        expect(await page.getByTestId('result-title').count()).toBe(0)
        await page.screenshot({ path: `${shots}/shared-anonymous-${v.name}.png` })
      })
      await withMap(v, { hash: link, loggedIn: true }, async (_b, page) => {
        await expect
          .poll(() => page.getByTestId('result-title').textContent(), { timeout: 20_000 })
          .toBe('Tờ 1, thửa 5')
        expect(await page.getByTestId('result-vn2000-x').textContent()).toBe(grid.x)
        expect(await page.getByTestId('result-vn2000-y').textContent()).toBe(grid.y)
        // Framed here: the point lies in the part of the map this screen's sheet or side panel leaves free.
        const map = (await page.getByTestId('map').boundingBox())!
        const sheet = v.name === 'phone' ? (await page.getByTestId('result-sheet').boundingBox())! : null
        const free = { bottom: sheet ? sheet.y : map.y + map.height, right: map.x + map.width - (sheet ? 0 : 400) }
        await expect
          .poll(
            async () => {
              const h = hashState(page.url())
              const at = pixelOf(h, h.sel!, map)
              return at.y > map.y + 60 && at.y < free.bottom - 20 && at.x > map.x + 20 && at.x < free.right - 20
            },
            { timeout: 10_000 },
          )
          .toBe(true)
        await page.screenshot({ path: `${shots}/shared-${v.name}.png` })

        // Another view typed into the address of the open tab: the map goes there.
        const elsewhere = { lat: target.lat + 0.002, lng: target.lng - 0.001 }
        await page.evaluate((p) => (location.hash = `#/${p.lat}/${p.lng}/17`), elsewhere)
        await expect
          .poll(() => {
            const h = hashState(page.url())
            return Math.abs(h.lat - elsewhere.lat) < 1e-5 && Math.abs(h.lng - elsewhere.lng) < 1e-5 && h.zoom === 17
          })
          .toBe(true)
      })
    })
  })
})
