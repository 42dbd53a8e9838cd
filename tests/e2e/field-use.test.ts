import { spawnSync } from 'node:child_process'
import { existsSync, mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import type { Page } from 'playwright-core'
import sharp from 'sharp'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { launch, mapReady, phone, pixelsNear, startApp, type Browser, type RunningApp } from './harness.ts'

/**
 * What a new user ran into on a phone (390×844) against the real built server: leaving the map from
 * the save-area panel, taps while the server cannot be reached.
 */

const PASSWORD = 'mat-khau-dung-thu-1'
const POINT = { lat: 10.7955, lng: 106.7 }

let app: RunningApp
let session: Record<string, unknown>
const dirs: string[] = []

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

/** A new account, logged in through the API; its session as the app keeps it. */
async function newSession(tag: string): Promise<Record<string, unknown>> {
  const email = `${tag}-${Date.now().toString(36)}${Math.random().toString(36).slice(2, 6)}@example.com`
  expect(
    (await api('/api/auth/register', { method: 'POST', json: { name: 'Người Dùng Thử', email, password: PASSWORD } }))
      .status,
  ).toBe(201)
  const login = await api<{ access_token: string; expires_at: string; name: string }>('/api/auth/login', {
    method: 'POST',
    json: { email, password: PASSWORD },
  })
  return {
    email,
    userName: login.data.name,
    token: login.data.access_token,
    expiresAt: login.data.expires_at,
    isLogin: true,
    isOpenLogin: false,
  }
}

/** A phone browser with a fresh profile, logged in; without the service worker when a test stubs the server. */
async function openPhone(
  opts: { serviceWorkers?: 'allow' | 'block'; session?: Record<string, unknown> } = {},
): Promise<Browser> {
  const dir = mkdtempSync(join(tmpdir(), 'qh-field-use-'))
  dirs.push(dir)
  const b = await launch({ ...phone, userDataDir: dir, serviceWorkers: opts.serviceWorkers ?? 'allow' })
  await b.context.addInitScript((s) => localStorage.setItem('qh.session', JSON.stringify(s)), opts.session ?? session)
  return b
}

/** Chooses the first search result for `q` in the map's search box. */
async function searchAndChoose(page: Page, q: string, option: RegExp): Promise<void> {
  const box = page.getByRole('combobox', { name: 'Tìm địa chỉ, tên đường hoặc tờ/thửa' })
  await box.fill('')
  await box.fill(q)
  await expect.poll(() => page.getByRole('option', { name: option }).count(), { timeout: 15_000 }).toBeGreaterThan(0)
  await page.getByRole('option', { name: option }).first().click()
}

const selectedUrl = () => `${app.url}/demo#/${POINT.lat}/${POINT.lng}/19/sel/${POINT.lat},${POINT.lng}`
/**
 * Taps a point (POINT unless given) where it now stands on the map: the card frames a parcel above its
 * sheet, so the map's centre is not the point a link named. Waits for the view to come to rest first
 * (an animated framing may still be on its way) and reads where it rests from the map's element.
 */
async function tapPoint(page: Page, p: { lat: number; lng: number } = POINT): Promise<void> {
  const rest = await page.getByTestId('map').evaluate(
    (el) =>
      new Promise<string>((done) => {
        const check = () =>
          el.dataset.moving !== 'true' && el.dataset.view ? done(el.dataset.view) : requestAnimationFrame(check)
        check()
      }),
  )
  const [lat, lng, zoom] = rest.split('/').map(Number) as [number, number, number]
  const box = (await page.getByTestId('map').boundingBox())!
  const R = 6378137
  const my = (v: number) => R * Math.log(Math.tan(Math.PI / 4 + (v * Math.PI) / 360))
  const res = (2 * Math.PI * R) / 256 / 2 ** zoom
  const x = box.x + box.width / 2 + (R * (p.lng - lng) * Math.PI) / 180 / res
  const y = box.y + box.height / 2 - (my(p.lat) - my(lat)) / res
  await page.touchscreen.tap(x, y)
}
const toasts = (page: Page, text: string) => page.locator('.mantine-Notification-root', { hasText: text }).count()

beforeAll(async () => {
  app = await startApp()
  session = await newSession('dung-thu')
})

afterAll(async () => {
  await app?.stop()
  for (const d of dirs) rmSync(d, { recursive: true, force: true })
})

describe('found when tried as a new user, at 390×844', () => {
  it('opens the saved-areas screen from the save-area panel without crashing the map as it closes', async () => {
    const b = await openPhone()
    try {
      const { page } = b
      await page.goto(`${app.url}/demo#/${POINT.lat}/${POINT.lng}/17`)
      await mapReady(page)
      await page.getByTestId('save-area-button').click()
      await page.getByTestId('save-area-panel').waitFor()
      await page.getByRole('link', { name: 'Các khu vực đã lưu, ảnh chờ gửi, lịch sử' }).click()
      await page.getByRole('heading', { level: 1, name: 'Dùng khi không có mạng' }).waitFor({ timeout: 20_000 })
      expect(new URL(page.url()).pathname).toBe('/offline')
      expect(b.consoleErrors.filter((e) => /removeLayer|TypeError/.test(e))).toEqual([])
    } finally {
      await b.close()
    }
  })

  it('says where data exists when a search finds nothing, and never repeats the ward in a result', async () => {
    const b = await openPhone()
    try {
      const { page } = b
      await page.goto(`${app.url}/demo#/${POINT.lat}/${POINT.lng}/17`)
      await mapReady(page)
      const box = page.getByTestId('map-search')
      await box.fill('zzqx khong co dau')
      const note = page.locator('.qh-search-note')
      await expect
        .poll(() => note.textContent(), { timeout: 20_000 })
        .toMatch(/^Không tìm thấy địa chỉ hay tên đường nào khớp\. Dữ liệu hiện có: Phường /)

      await box.fill('tờ 12 thửa 5')
      const options = page.getByRole('option')
      await expect.poll(() => options.count(), { timeout: 20_000 }).toBeGreaterThan(0)
      for (const text of await options.allInnerTexts()) {
        const wards = text.match(/Phường [^,\n]+/g) ?? []
        expect(new Set(wards).size, text).toBe(wards.length)
      }
    } finally {
      await b.close()
    }
  })

  it('logs a new account in on registering, leads from the register dialog back to the login, and drops the stale error toast on success', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'qh-field-use-'))
    dirs.push(dir)
    const b = await launch({ ...phone, userDataDir: dir })
    try {
      const { page } = b
      await page.goto(`${app.url}/demo`)
      await mapReady(page)
      const email = `moi-${Date.now().toString(36)}@example.com`
      await page.getByRole('button', { name: 'Đăng nhập', exact: true }).click()
      const login = page.getByRole('dialog', { name: 'Đăng nhập' })
      await login.getByLabel('E-mail').fill(email)
      await login.getByLabel(/^Mật khẩu/).fill('chua-co-tai-khoan-1')
      await login.getByRole('button', { name: 'Đăng nhập' }).click()
      await expect.poll(() => toasts(page, 'E-mail hoặc mật khẩu không đúng.'), { timeout: 20_000 }).toBe(1)

      await login.getByRole('button', { name: 'Chưa có tài khoản? Đăng ký' }).click()
      const register = page.getByRole('dialog', { name: 'Đăng ký tài khoản' })
      await register.getByRole('button', { name: 'Đã có tài khoản? Đăng nhập' }).click()
      await login.waitFor()
      await login.getByRole('button', { name: 'Chưa có tài khoản? Đăng ký' }).click()

      await register.getByLabel('Họ tên').fill('Người Mới')
      expect(await register.getByLabel('E-mail').inputValue()).toBe(email)
      await register.getByLabel(/^Mật khẩu/).fill(PASSWORD)
      await register.getByLabel(/^Nhập lại mật khẩu/).fill(PASSWORD)

      // An e-mail already registered, sent twice: said once in a toast (and under the field).
      await register.getByLabel('E-mail').fill(String(session.email))
      for (let i = 0; i < 2; i++) {
        const answered = page.waitForResponse((r) => r.url().endsWith('/api/auth/register'))
        await register.getByRole('button', { name: 'Đăng ký' }).click()
        await answered
      }
      await expect.poll(() => toasts(page, 'E-mail này đã được đăng ký.')).toBe(1)
      await register.getByLabel('E-mail').fill(email)

      await register.getByRole('button', { name: 'Đăng ký' }).click()
      await page.getByRole('button', { name: /^Tài khoản: Người Mới/ }).waitFor({ timeout: 20_000 })
      expect(await page.getByRole('dialog').count()).toBe(0)
      // Dropped on success, it still plays Mantine's short exit transition; its own close comes 5 s after it showed.
      await expect.poll(() => toasts(page, 'E-mail hoặc mật khẩu không đúng.'), { timeout: 1_500 }).toBe(0)
      expect(await page.evaluate(() => JSON.parse(localStorage.getItem('qh.session') ?? '{}').isLogin)).toBe(true)
    } finally {
      await b.close()
    }
  })

  it('draws the map in its dark style in dark mode, restyles it without asking for tiles again when the scheme changes, and writes names white on black in high contrast', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'qh-field-use-'))
    dirs.push(dir)
    const b = await launch({ ...phone, colorScheme: 'dark', userDataDir: dir, serviceWorkers: 'block' })
    try {
      const { page } = b
      let tileRequests = 0
      page.on('request', (r) => {
        if (new URL(r.url()).pathname.startsWith('/tiles/')) tileRequests += 1
      })
      // The looks' land and name halo colours (styles.ts palettes), counted in a screenshot of the map.
      const DARK_HALO = { r: 18, g: 22, b: 27 }
      const BLACK = { r: 0, g: 0, b: 0 }
      const background = () =>
        page.evaluate(() => getComputedStyle(document.querySelector('[data-testid=map] .ol-viewport')!).backgroundColor)
      await page.goto(`${app.url}/demo#/${POINT.lat}/${POINT.lng}/17`)
      await mapReady(page)
      expect(await background()).toBe('rgb(26, 31, 38)')
      await expect.poll(() => pixelsNear(page, DARK_HALO, 2), { timeout: 30_000 }).toBeGreaterThan(2000)
      await page.waitForLoadState('networkidle')
      const loaded = tileRequests

      await page.emulateMedia({ colorScheme: 'light' })
      await expect.poll(() => background(), { timeout: 10_000 }).toBe('rgb(236, 239, 241)')
      await expect.poll(() => pixelsNear(page, DARK_HALO, 2), { timeout: 20_000 }).toBeLessThan(100)
      await page.emulateMedia({ colorScheme: 'dark' })
      await expect.poll(() => pixelsNear(page, DARK_HALO, 2), { timeout: 20_000 }).toBeGreaterThan(2000)
      expect(tileRequests).toBe(loaded)

      expect(await pixelsNear(page, BLACK, 1)).toBeLessThan(100)
      await page.getByRole('button', { name: 'Lớp bản đồ và độ đậm quy hoạch' }).click()
      await page.getByLabel('Tương phản cao (dễ đọc ngoài nắng)').check()
      await page.getByRole('button', { name: 'Đóng bảng lớp bản đồ' }).click()
      await expect.poll(() => pixelsNear(page, BLACK, 1), { timeout: 20_000 }).toBeGreaterThan(2000)
      expect(tileRequests).toBe(loaded)
    } finally {
      await b.close()
    }
  })

  it('reopens a parcel already looked up today from the history on reload, marked with its time and "Làm mới", without counting', async () => {
    const b = await openPhone()
    try {
      const { page } = b
      const usage = async () =>
        (await api<{ count: number }>('/api/auth/usage', { token: String(session.token) })).data.count
      await page.goto(selectedUrl())
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
      const counted = await usage()
      await page.reload()
      await expect.poll(() => page.getByTestId('stored-result-note').count(), { timeout: 30_000 }).toBe(1)
      expect(await page.getByTestId('offline-full-lookup').innerText()).toMatch(/^Làm mới/)
      expect(await usage()).toBe(counted)
    } finally {
      await b.close()
    }
  })

  it('answers a tap from the stored result without asking when the server cannot be reached, and says so, with no red toast, on a tap that had to ask', async () => {
    const b = await openPhone({ serviceWorkers: 'block' })
    try {
      const { page } = b
      await page.goto(selectedUrl())
      await expect.poll(() => page.getByTestId('result-title').count(), { timeout: 30_000 }).toBe(1)
      expect(await page.getByTestId('map-data-status').count()).toBe(0)

      // The browser still believes it is online; only the server is out of reach (no signal in the field).
      // A tap on the parcel shows the stored answer, asking nothing.
      let asked = 0
      await page.route('**/api/planning**', (r) => {
        asked += 1
        return r.abort('internetdisconnected')
      })
      await page.getByRole('button', { name: 'Đóng kết quả' }).click()
      await tapPoint(page)
      await expect.poll(() => page.getByTestId('stored-result-note').count(), { timeout: 30_000 }).toBe(1)
      expect(asked).toBe(0)
      // A tap on a parcel not looked up before asks, fails quietly, and the map says the server is out of reach.
      await page.getByRole('button', { name: 'Đóng kết quả' }).click()
      await tapPoint(page, { lat: POINT.lat - 0.0003, lng: POINT.lng })
      await expect
        .poll(() => page.getByTestId('map-data-status').textContent(), { timeout: 10_000 })
        .toMatch(/^Không kết nối được máy chủ · /)
      expect(asked).toBe(1)
      expect(await toasts(page, 'Không kết nối được tới máy chủ')).toBe(0)
    } finally {
      await b.close()
    }
  })

  it('says a tap offline is outside every saved area, and once online again offers to save the area around it', async () => {
    const b = await openPhone({ serviceWorkers: 'block' })
    try {
      const { page } = b
      await page.goto(`${app.url}/demo#/${POINT.lat + 0.001}/${POINT.lng + 0.001}/18`)
      await mapReady(page)
      // No signal: the server is out of reach first (this also loads the offline panels, which the
      // blocked service worker cannot serve later), then the browser goes offline.
      await page.route('**/api/planning**', (r) => r.abort('internetdisconnected'))
      await page.getByTestId('map').focus()
      await page.keyboard.press('Enter')
      const note = page.getByTestId('offline-not-saved')
      await expect
        .poll(() => note.textContent(), { timeout: 30_000 })
        .toMatch(/Khu vực này chưa được lưu để dùng offline/)
      await b.context.setOffline(true)
      await note.getByRole('button', { name: 'Nhắc tôi lưu khu vực này khi có mạng' }).click()
      await expect
        .poll(() => note.getByRole('status').textContent())
        .toMatch(/Khi có mạng, bản đồ sẽ đề nghị lưu khu vực này/)
      await page.screenshot({ path: 'out/offline-not-saved-phone.png' })
      // Offline, nothing is offered yet; the reminder is kept on the device.
      expect(await page.getByTestId('save-reminder').count()).toBe(0)
      expect(await page.evaluate(() => localStorage.getItem('qh.save-reminder'))).toContain('"zoom":17')

      await page.unroute('**/api/planning**')
      await b.context.setOffline(false)
      const offer = page.getByTestId('save-reminder')
      await expect.poll(() => offer.count(), { timeout: 10_000 }).toBe(1)
      await page.screenshot({ path: 'out/save-reminder-phone.png' })
      await offer.getByRole('button', { name: 'Lưu khu vực này' }).click()
      await page.getByTestId('save-area-panel').waitFor({ timeout: 20_000 })
      expect(await page.getByTestId('save-reminder').count()).toBe(0)
      expect(await page.evaluate(() => localStorage.getItem('qh.save-reminder'))).toBe('null')
    } finally {
      await b.close()
    }
  })

  it('charges a parcel once: chosen twice from search it opens the second time from the history, and at the limit its stored card still opens with "Định giá" disabled and the reason', async () => {
    const own = await newSession('mot-luot')
    const token = String(own.token)
    const b = await openPhone({ session: own })
    try {
      const { page } = b
      let planningCalls = 0
      page.on('request', (r) => {
        if (new URL(r.url()).pathname === '/api/planning') planningCalls += 1
      })
      const usage = async () => (await api<{ count: number }>('/api/auth/usage', { token })).data.count
      await page.goto(`${app.url}/demo#/${POINT.lat}/${POINT.lng}/16`)
      await mapReady(page)
      await searchAndChoose(page, 'to 1 thua 5', /Tờ 1, thửa 5/)
      await expect.poll(() => page.getByTestId('result-title').textContent(), { timeout: 20_000 }).toBe('Tờ 1, thửa 5')
      expect(await usage()).toBe(1)

      await page.getByRole('button', { name: 'Đóng kết quả' }).click()
      await searchAndChoose(page, 'to 1 thua 5', /Tờ 1, thửa 5/)
      await expect.poll(() => page.getByTestId('stored-result-note').count(), { timeout: 20_000 }).toBe(1)
      expect(await page.getByTestId('result-title').textContent()).toBe('Tờ 1, thửa 5')
      expect(planningCalls).toBe(1)
      expect(await usage()).toBe(1)

      // The day's lookups spent elsewhere: the stored card still opens, with no MaxUsage toast.
      const spend = () => api(`/api/planning?lat=${POINT.lat}&lng=${POINT.lng}`, { token })
      let answered = 0
      while ((await spend()).status === 200) answered += 1
      expect(answered).toBeGreaterThan(0)
      await page.reload()
      await mapReady(page)
      await expect.poll(() => page.getByTestId('usage-counter').textContent(), { timeout: 20_000 }).toMatch(/^còn 0\//)
      await searchAndChoose(page, 'to 1 thua 5', /Tờ 1, thửa 5/)
      await expect.poll(() => page.getByTestId('stored-result-note').count(), { timeout: 20_000 }).toBe(1)
      expect(planningCalls).toBe(1)
      expect(await toasts(page, 'Bạn đã dùng hết lượt')).toBe(0)
      await expect.poll(() => page.getByTestId('value-spent').textContent()).toMatch(/^Đã hết lượt tra cứu hôm nay/)
      expect(await page.getByRole('button', { name: 'Định giá thửa này' }).isDisabled()).toBe(true)
      await page.screenshot({ path: 'out/stored-at-limit-phone.png' })
    } finally {
      await b.close()
    }
  })

  it('prints the planning card on A4: the map extract, the parcel with its zones, road reserves, VN-2000 corners and source, without the screen’s controls', async () => {
    const b = await openPhone()
    try {
      const { page } = b
      await page.goto(selectedUrl())
      await expect.poll(() => page.getByTestId('result-title').count(), { timeout: 30_000 }).toBe(1)
      expect(await page.getByTestId('print-card').isVisible()).toBe(true)
      expect(await page.getByTestId('print-corners').isVisible()).toBe(false)
      // "In phiếu" from the phone: the print dialog (here only counted) opens once the map is drawn for the page.
      await page.evaluate(() => {
        const w = window as unknown as { qhPrinted: number }
        w.qhPrinted = 0
        window.print = () => void (w.qhPrinted += 1)
      })
      await page.getByTestId('print-card').click()
      await page.waitForFunction(() => (window as unknown as { qhPrinted: number }).qhPrinted === 1, undefined, {
        timeout: 30_000,
      })
      // The extract is centred on the parcel, not where the phone's sheet left it (the view's centre, kept on the map's element).
      const centre = async () => (await page.getByTestId('map').getAttribute('data-view'))!.split('/').map(Number)
      await expect.poll(async () => Math.abs(POINT.lat - (await centre())[0]!) * 111_000).toBeLessThan(20)
      expect(Math.abs(POINT.lng - (await centre())[1]!) * 109_000).toBeLessThan(20)
      await page.emulateMedia({ media: 'print' })
      expect(await page.getByTestId('print-corners').isVisible()).toBe(true)
      const corners = await page.getByTestId('print-corners').locator('tbody tr').count()
      expect(corners).toBeGreaterThanOrEqual(3)
      for (const hidden of ['print-card', 'measure-button', 'legend-chip'])
        expect(await page.getByTestId(hidden).isVisible(), hidden).toBe(false)
      expect(await page.getByRole('toolbar', { name: 'Công cụ bản đồ' }).isVisible()).toBe(false)
      const card = await page.getByTestId('result-card').innerText()
      for (const part of [
        'Thửa đất',
        'Lộ giới',
        'Quy hoạch',
        'Toạ độ VN-2000',
        'Nguồn dữ liệu',
        'Phiếu thông tin quy hoạch',
      ])
        expect(card).toContain(part)
      // The place: today's ward and province, and what it was before 1 July 2025, with the boundaries' source.
      expect(await page.getByTestId('result-place').isVisible()).toBe(true)
      const place = await page.getByTestId('result-place').innerText()
      expect(place).toMatch(/^(Phường|Xã|Đặc khu) .+, (TP\. |Tỉnh )?\S/)
      expect(await page.getByTestId('result-place-before').innerText()).toMatch(/^Trước 1\/7\/2025: \S/)
      const map = (await page.getByTestId('map').boundingBox())!
      expect(map.height).toBeGreaterThan(200)
      // The extract fills the page's width (A4 less its margins, 703 px), not the phone's 390 px: the map is
      // drawn at that size before printing, as the browser prints a canvas as it was last drawn.
      const drawn = await page.evaluate(() =>
        Math.max(
          ...[...document.querySelectorAll<HTMLCanvasElement>('[data-testid=map] canvas')].map(
            (c) => c.width / devicePixelRatio,
          ),
        ),
      )
      expect(drawn).toBeGreaterThanOrEqual(700)
      const pdf = await page.pdf({ path: 'out/planning-card-a4.pdf', format: 'A4' })
      // Where poppler is installed, the printed page is measured too: the map (first on the page) is painted
      // across the width between the margins, in a band of rows through its middle.
      rmSync('out/planning-card-a4.png', { force: true })
      spawnSync('pdftoppm', ['-r', '60', '-png', '-singlefile', 'out/planning-card-a4.pdf', 'out/planning-card-a4'])
      if (existsSync('out/planning-card-a4.png')) {
        const { data, info } = await sharp('out/planning-card-a4.png')
          .removeAlpha()
          .raw()
          .toBuffer({ resolveWithObject: true })
        const mm = info.width / 210
        const [left, right, middle] = [Math.ceil(12 * mm) + 2, Math.floor(198 * mm) - 2, Math.round((12 + 45) * mm)]
        let painted = 0
        for (let x = left; x < right; x += 1) {
          for (let y = middle - Math.round(20 * mm); y <= middle + Math.round(20 * mm); y += 1) {
            const at = (y * info.width + x) * 3
            if (data[at]! + data[at + 1]! + data[at + 2]! < 735) {
              painted += 1
              break
            }
          }
        }
        expect(painted / (right - left)).toBeGreaterThan(0.95)
      }
      expect(pdf.toString('latin1').match(/\/Type\s*\/Page(?!s)/g)?.length).toBeLessThanOrEqual(2)
    } finally {
      await b.close()
    }
  })
})
