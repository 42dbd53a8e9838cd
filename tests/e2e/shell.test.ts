import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { launch, secondBuild, serveOn, startApp, type Browser, type RunningApp } from './harness.ts'

const phone = { viewport: { width: 390, height: 844 }, mobile: true }
const uniqueEmail = () => `shell-${Date.now().toString(36)}-${Math.random().toString(36).slice(2, 8)}@example.com`

async function withBrowser(opts: Parameters<typeof launch>[0], run: (b: Browser) => Promise<void>) {
  const b = await launch(opts)
  try {
    await run(b)
  } finally {
    await b.close()
  }
}

const buildIdOf = (b: Browser) => b.page.locator('meta[name="build-id"]').getAttribute('content')
const loginDialog = (b: Browser) => b.page.getByRole('dialog', { name: 'Đăng nhập' })

describe('the app shell in Chromium', () => {
  let app: RunningApp
  beforeAll(async () => {
    app = await startApp()
  })
  afterAll(async () => {
    await app?.stop()
  })

  it('registers (which logs the account in), shows the server\u2019s count in the header, then logs out', async () => {
    await withBrowser(phone, async (b) => {
      const { page } = b
      const email = uniqueEmail()
      await page.goto(app.url)
      await page.getByRole('button', { name: 'Đăng nhập' }).first().click()
      await loginDialog(b).getByRole('button', { name: 'Chưa có tài khoản? Đăng ký' }).click()
      const register = page.getByRole('dialog', { name: 'Đăng ký tài khoản' })
      await register.getByLabel('Họ tên').fill('Nguyễn Văn Thử')
      await register.getByLabel('E-mail').fill(email)
      await register.getByLabel(/^Mật khẩu/).fill('mat-khau-123')
      await register.getByLabel('Nhập lại mật khẩu').fill('mat-khau-123')
      await register.getByRole('button', { name: 'Đăng ký' }).click()

      // Registering logs the new account in with the password just typed: no second dialog.
      await page.getByRole('button', { name: /^Tài khoản: Nguyễn Văn Thử/ }).waitFor({ timeout: 20_000 })
      expect(await page.getByRole('dialog').count()).toBe(0)

      const token = await fetch(`${app.url}/api/auth/login`, {
        method: 'POST',
        headers: { 'Content-Type': 'application/json' },
        body: JSON.stringify({ email, password: 'mat-khau-123' }),
      }).then(async (r) => ((await r.json()) as { data: { access_token: string } }).data.access_token)
      const usage = await fetch(`${app.url}/api/auth/usage`, { headers: { Authorization: `Bearer ${token}` } }).then(
        async (r) => ((await r.json()) as { data: { count: number; limit: number } }).data,
      )
      await expect
        .poll(() => page.getByTestId('usage-counter').textContent(), { timeout: 15_000 })
        .toBe(`còn ${usage.limit - usage.count}/${usage.limit} lượt hôm nay`)
      await expect.poll(() => page.getByText('Đăng ký thành công', { exact: false }).count()).toBeGreaterThan(0)

      await page.getByTestId('account-menu').click()
      await page.getByRole('menuitem', { name: 'Đăng xuất' }).click()
      await page.getByRole('button', { name: 'Giữ lại và đăng xuất' }).click()
      await expect.poll(() => page.getByRole('button', { name: 'Đăng nhập' }).first().isVisible()).toBe(true)
      expect(await page.getByTestId('usage-counter').count()).toBe(0)
      const stored = await page.evaluate(
        () => JSON.parse(localStorage.getItem('qh.session') ?? '{}') as { isLogin?: boolean },
      )
      expect(stored.isLogin).toBe(false)
    })
  })

  it('shows the account’s e-mail and its lookups of the last 30 days, and changes its password on the account page', async () => {
    const email = uniqueEmail()
    const call = (path: string, init: { json?: unknown; token?: string } = {}) =>
      fetch(`${app.url}${path}`, {
        method: init.json ? 'POST' : 'GET',
        headers: {
          'Content-Type': 'application/json',
          ...(init.token ? { Authorization: `Bearer ${init.token}` } : {}),
        },
        body: init.json ? JSON.stringify(init.json) : undefined,
      })
    expect(
      (await call('/api/auth/register', { json: { name: 'Lê Thị Tài Khoản', email, password: 'mat-khau-123' } }))
        .status,
    ).toBe(201)
    const login = (await (await call('/api/auth/login', { json: { email, password: 'mat-khau-123' } })).json()) as {
      data: { access_token: string; expires_at: string; name: string }
    }
    const token = login.data.access_token
    expect((await call('/api/planning?lat=10.7955&lng=106.7', { token })).status).toBe(200)
    await withBrowser(phone, async (b) => {
      const { page } = b
      await b.context.addInitScript((s) => localStorage.setItem('qh.session', JSON.stringify(s)), {
        userName: login.data.name,
        token,
        expiresAt: login.data.expires_at,
        isLogin: true,
        isOpenLogin: false,
      })
      await page.goto(`${app.url}/account`)
      await expect
        .poll(() => page.getByTestId('account-email').textContent(), { timeout: 20_000 })
        .toBe(`E-mail: ${email}`)
      expect(await page.getByTestId('usage-days-total').textContent()).toBe('Tổng cộng 1 lượt trong 1 ngày.')
      await page.screenshot({ path: 'out/account-phone-light.png', fullPage: true })
      await page.emulateMedia({ colorScheme: 'dark' })
      await page.screenshot({ path: 'out/account-phone-dark.png', fullPage: true })

      await page.getByLabel(/^Mật khẩu hiện tại/).fill('mat-khau-123')
      await page.getByLabel(/^Mật khẩu mới/).fill('mat-khau-moi-456')
      await page.getByLabel(/^Nhập lại mật khẩu mới/).fill('mat-khau-moi-456')
      await page.getByRole('button', { name: 'Đổi mật khẩu' }).click()
      await expect
        .poll(() => page.getByText('Đã đổi mật khẩu. Các thiết bị khác đã được đăng xuất.').count(), {
          timeout: 20_000,
        })
        .toBeGreaterThan(0)
      expect((await call('/api/auth/login', { json: { email, password: 'mat-khau-moi-456' } })).status).toBe(200)
      expect((await call('/api/auth/me', { token })).status).toBe(200)
    })
  })

  it.each([
    ['past its expiry', { token: 'whatever', expiresAt: '2020-01-01T00:00:00+07:00' }],
    ['revoked on the server', { token: 'not-a-real-token', expiresAt: '2099-01-01T00:00:00+07:00' }],
  ])('opens the login dialog with TOKEN_EXPIRED for a token %s', async (_name, session) => {
    await withBrowser({}, async (b) => {
      const { page } = b
      await page.goto(app.url)
      await page.evaluate(
        (s) =>
          localStorage.setItem(
            'qh.session',
            JSON.stringify({ userName: 'Lan', isLogin: true, isOpenLogin: false, ...s }),
          ),
        session,
      )
      await page.reload()
      await expect.poll(() => loginDialog(b).isVisible(), { timeout: 15_000 }).toBe(true)
      await expect
        .poll(() => page.getByText('Phiên đăng nhập đã hết hạn. Vui lòng đăng nhập lại.').first().isVisible())
        .toBe(true)
      const stored = await page.evaluate(
        () => JSON.parse(localStorage.getItem('qh.session') ?? '{}') as { token?: string },
      )
      expect(stored.token).toBe('')
    })
  })

  it('keeps the component styles of a screen loaded later above the app stylesheet that comes after them', async () => {
    await withBrowser(phone, async ({ page }) => {
      await page.goto(`${app.url}/offline`)
      const active = page.getByRole('tab', { selected: true })
      await expect.poll(() => active.count(), { timeout: 30_000 }).toBe(1)
      // The Tabs' underline comes with the lazily loaded screen; the app's base "button { border: 0 }" must not erase it.
      const underline = await active.evaluate((el) => getComputedStyle(el).borderBottomWidth)
      expect(parseFloat(underline)).toBeGreaterThan(0)
    })
  })

  it('shows the 404 page for an unknown path and for a map URL that fails validation', async () => {
    await withBrowser({}, async (b) => {
      const { page } = b
      await page.goto(`${app.url}/khong-co-trang-nay`)
      await expect
        .poll(() => page.getByTestId('error-message').textContent(), { timeout: 15_000 })
        .toBe('Page not found: /khong-co-trang-nay')
      expect(await page.getByRole('heading', { level: 1 }).textContent()).toBe('Page Not Found')
      expect(b.consoleErrors).toEqual([])
      await page.goto(`${app.url}/demo?lat=abc`)
      await expect
        .poll(() => page.getByTestId('error-message').textContent(), { timeout: 15_000 })
        .toBe('Page Not Found: /demo?lat=abc')
      expect(await page.getByRole('heading', { level: 1 }).textContent()).toBe('Page Not Found')
    })
  })

  it('is installable: a valid manifest, its icons, and a service worker that controls the page', async () => {
    await withBrowser({}, async (b) => {
      const { page } = b
      await page.goto(app.url)
      const manifestHref = await page.locator('link[rel="manifest"]').getAttribute('href')
      expect(manifestHref).toBe('/manifest.webmanifest')
      const manifest = (await (await fetch(`${app.url}/manifest.webmanifest`)).json()) as {
        name: string
        short_name: string
        start_url: string
        scope: string
        display: string
        theme_color: string
        background_color: string
        icons: { src: string; sizes: string; purpose: string }[]
        screenshots: { src: string; form_factor: string }[]
      }
      expect(manifest).toMatchObject({ short_name: 'Quy hoạch VN', scope: '/', display: 'standalone' })
      expect(manifest.name).toMatch(/quy hoạch/i)
      expect(manifest.start_url.startsWith('/')).toBe(true)
      expect(manifest.theme_color).toMatch(/^#[0-9a-f]{6}$/)
      expect(manifest.icons.map((i) => `${i.sizes} ${i.purpose}`)).toEqual(
        expect.arrayContaining(['192x192 any', '512x512 any', '512x512 maskable']),
      )
      expect(manifest.screenshots.map((s) => s.form_factor).sort()).toEqual(['narrow', 'wide'])
      for (const file of [...manifest.icons, ...manifest.screenshots]) {
        const res = await fetch(`${app.url}${file.src}`)
        expect(res.status, file.src).toBe(200)
        // Read to the end: a body left paused when the server later closes the idle socket trips Node's fetch.
        expect((await res.arrayBuffer()).byteLength, file.src).toBeGreaterThan(0)
      }
      await page.waitForFunction(() => navigator.serviceWorker.controller !== null, undefined, { timeout: 30_000 })
      const latest = (await (await fetch(`${app.url}/builds/latest.json`)).json()) as { id: string }
      expect(await buildIdOf(b)).toBe(latest.id)
    })
  })

  it('reloads offline and still renders the shell from the service worker', async () => {
    await withBrowser({}, async (b) => {
      const { page, context } = b
      await page.goto(app.url)
      await page.waitForFunction(() => navigator.serviceWorker.controller !== null, undefined, { timeout: 30_000 })
      await context.setOffline(true)
      await page.reload()
      await expect
        .poll(() => page.getByRole('heading', { level: 1 }).textContent(), { timeout: 15_000 })
        .toBe('Tra cứu quy hoạch và định giá đất')
      await page.goto(`${app.url}/valuation`)
      await expect
        .poll(() => page.getByRole('heading', { level: 1 }).textContent(), { timeout: 15_000 })
        .toBe('Định giá đất')
      await context.setOffline(false)
    })
  })

  it('reloads exactly once when a route chunk is missing, then explains instead of looping', async () => {
    await withBrowser({}, async (b) => {
      const { page, context } = b
      // No service worker here, so the missing file really reaches the network.
      await context.route('**/sw.js', (r) => r.fulfill({ status: 404, body: '' }))
      await context.route(/\/assets\/valuation-[^/]+\.js$/, (r) => r.fulfill({ status: 404, body: '' }))
      // Every reload a page asks for, counted as it is asked (the navigate event fires inside location.reload()).
      await context.addInitScript(() =>
        navigation.addEventListener('navigate', (e) => {
          if (e.navigationType !== 'reload') return
          sessionStorage.setItem('test.reloads', String(Number(sessionStorage.getItem('test.reloads')) + 1))
        }),
      )
      let loads = 0
      page.on('load', () => (loads += 1))
      await page.goto(`${app.url}/valuation`)
      await expect
        .poll(() => page.getByText('Không tải được phần này của ứng dụng', { exact: false }).isVisible(), {
          timeout: 20_000,
        })
        .toBe(true)
      // A reload is asked while the chunk's failure is handled (Vite's preload error, the router's lazy
      // route), before the explanation renders: one asked in all, by the first page, means no third load.
      expect(await page.evaluate(() => sessionStorage.getItem('test.reloads'))).toBe('1')
      await expect.poll(() => loads).toBe(2)
    })
  })
})

describe('a new build while the app is open', () => {
  let first: RunningApp
  let secondDist: string
  const dataDir = mkdtempSync(join(tmpdir(), 'qh-e2e-update-'))
  beforeAll(async () => {
    secondDist = await secondBuild()
    // Our own data dir: it must outlive the first server, which the second one replaces.
    first = await startApp({ dataDir })
  })
  afterAll(async () => {
    await first?.stop()
    rmSync(dataDir, { recursive: true, force: true })
  })

  it('reloads an idle page into the new build and only offers the reload where a draft is typed', async () => {
    await withBrowser({}, async (b) => {
      const { page: typing, context } = b
      await typing.goto(first.url)
      await typing.waitForFunction(() => navigator.serviceWorker.controller !== null, undefined, { timeout: 30_000 })
      const oldId = await buildIdOf(b)
      const idle = await context.newPage()
      await idle.goto(`${first.url}/valuation`)
      await idle.waitForFunction(() => navigator.serviceWorker.controller !== null, undefined, { timeout: 30_000 })

      await typing.getByRole('button', { name: 'Đăng nhập' }).first().click()
      await loginDialog(b).getByLabel('E-mail').fill('ban-nhap@example.com')

      // Deploy: the same origin now serves the second build.
      await first.stop()
      const second = await serveOn(first.port, first.dataDir, secondDist)
      try {
        const newId = ((await (await fetch(`${first.url}/builds/latest.json`)).json()) as { id: string }).id
        expect(newId).not.toBe(oldId)

        await typing.evaluate(() => window.dispatchEvent(new Event('online')))
        await expect
          .poll(() => typing.getByText('Có phiên bản mới — tải lại').isVisible(), { timeout: 20_000 })
          .toBe(true)
        // On a phone the offer stands above the bottom navigation, never over it.
        const wide = typing.viewportSize()
        await typing.setViewportSize({ width: 390, height: 844 })
        const banner = (await typing.locator('.update-banner').boundingBox())!
        const nav = (await typing.locator('.app-nav-bottom').boundingBox())!
        expect(banner.y + banner.height, 'the update offer ends above the bottom navigation').toBeLessThanOrEqual(nav.y)
        if (wide) await typing.setViewportSize(wide)

        await idle.evaluate(() => window.dispatchEvent(new Event('online')))
        await expect
          .poll(() => idle.locator('meta[name="build-id"]').getAttribute('content'), { timeout: 40_000 })
          .toBe(newId)
        await expect
          .poll(() => idle.getByRole('heading', { level: 1 }).textContent(), { timeout: 15_000 })
          .toBe('Định giá đất')

        expect(await loginDialog(b).getByLabel('E-mail').inputValue()).toBe('ban-nhap@example.com')
        expect(await buildIdOf(b)).toBe(oldId)

        await typing.getByTestId('update-reload').click()
        await expect
          .poll(() => typing.locator('meta[name="build-id"]').getAttribute('content'), { timeout: 40_000 })
          .toBe(newId)
      } finally {
        await second.stop()
      }
    })
  })
})
