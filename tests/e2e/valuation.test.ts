import { spawnSync } from 'node:child_process'
import { existsSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join, resolve } from 'node:path'
import { PDFDocument } from 'pdf-lib'
import sharp from 'sharp'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import type { Page } from 'playwright-core'
import { desktop, launch, phone, startApp, type RunningApp } from './harness.ts'

const root = resolve(import.meta.dirname, '../..')
const out = join(root, 'out')
const password = 'dinh-gia-123'
const uniqueEmail = () => `valuation-${Date.now().toString(36)}-${Math.random().toString(36).slice(2, 8)}@example.com`

type Session = { userName: string; token: string; expiresAt: string; isLogin: true; isOpenLogin: false }

async function api<T>(
  app: RunningApp,
  path: string,
  init: RequestInit = {},
  token?: string,
): Promise<{ status: number; body: { data: T } }> {
  const res = await fetch(`${app.url}${path}`, {
    ...init,
    headers: {
      'Content-Type': 'application/json',
      ...(token ? { Authorization: `Bearer ${token}` } : {}),
      ...init.headers,
    },
  })
  return { status: res.status, body: (await res.json()) as { data: T } }
}

/** The session the app keeps in localStorage, written before the app starts so the page opens logged in. */
async function openLoggedIn(page: Page, session: Session, url: string) {
  await page.addInitScript((s) => {
    if (!localStorage.getItem('qh.session')) localStorage.setItem('qh.session', JSON.stringify(s))
  }, session)
  await page.goto(url)
}

describe('the valuation screen in Chromium', () => {
  let app: RunningApp
  let session: Session
  let point: { lat: number; lng: number }
  let photos: string[]
  let photoDir: string
  let profile: string

  beforeAll(async () => {
    app = await startApp()
    const email = uniqueEmail()
    expect(
      (
        await api(app, '/api/auth/register', {
          method: 'POST',
          body: JSON.stringify({ name: 'Người Định Giá', email, password }),
        })
      ).status,
    ).toBe(201)
    // One login for the whole file: logins are rate limited per e-mail and per IP.
    const login = await api<{ access_token: string; expires_at: string; name: string }>(app, '/api/auth/login', {
      method: 'POST',
      body: JSON.stringify({ email, password }),
    })
    session = {
      userName: login.body.data.name,
      token: login.body.data.access_token,
      expiresAt: login.body.data.expires_at,
      isLogin: true,
      isOpenLogin: false,
    }
    const hits = await api<{ lat: number; lng: number; label: string }[]>(
      app,
      `/api/search?q=${encodeURIComponent('tờ 1 thửa 5')}`,
      {},
      session.token,
    )
    expect(hits.body.data[0]?.label).toBe('Tờ 1, thửa 5')
    point = { lat: hits.body.data[0]!.lat, lng: hits.body.data[0]!.lng }

    // Photos larger than 2048 px, as PNG, so resizing and re-encoding on the device show in what is sent.
    photoDir = mkdtempSync(join(tmpdir(), 'qh-photos-'))
    photos = await Promise.all(
      ['#d97706', '#0284c7', '#16a34a', '#9333ea', '#dc2626'].map(async (color, i) => {
        const file = join(photoDir, `anh-${i + 1}.png`)
        await sharp({ create: { width: 3000, height: 2250, channels: 3, background: color } })
          .png()
          .toFile(file)
        return file
      }),
    )
    profile = mkdtempSync(join(tmpdir(), 'qh-valuation-profile-'))
    mkdirSync(out, { recursive: true })
  })

  afterAll(async () => {
    await app?.stop()
    if (photoDir) rmSync(photoDir, { recursive: true, force: true })
    if (profile) rmSync(profile, { recursive: true, force: true })
  })

  it('values a demo parcel with 2 photos: range, VT position and comparables; a fifth photo is refused; the report prints on one A4 page', async () => {
    const b = await launch({ ...desktop, userDataDir: profile })
    try {
      const { page } = b
      // Records what each upload carries, as the browser hands it to XMLHttpRequest.
      await page.addInitScript(() => {
        const sent: { key: string | null; type: string; size: number; width: number; height: number }[] = []
        ;(window as unknown as { qhUploads: typeof sent }).qhUploads = sent
        const open = XMLHttpRequest.prototype.open
        const setHeader = XMLHttpRequest.prototype.setRequestHeader
        const send = XMLHttpRequest.prototype.send
        XMLHttpRequest.prototype.open = function (
          this: XMLHttpRequest & { qhKey?: string },
          ...args: Parameters<typeof open>
        ) {
          this.qhKey = undefined
          return open.apply(this, args)
        } as typeof open
        XMLHttpRequest.prototype.setRequestHeader = function (
          this: XMLHttpRequest & { qhKey?: string },
          name: string,
          value: string,
        ) {
          if (name.toLowerCase() === 'idempotency-key') this.qhKey = value
          return setHeader.call(this, name, value)
        }
        XMLHttpRequest.prototype.send = function (
          this: XMLHttpRequest & { qhKey?: string },
          body?: Document | XMLHttpRequestBodyInit | null,
        ) {
          if (body instanceof FormData) {
            for (const file of body.getAll('images')) {
              if (!(file instanceof Blob)) continue
              const key = this.qhKey ?? null
              void createImageBitmap(file).then((bmp) =>
                sent.push({ key, type: file.type, size: file.size, width: bmp.width, height: bmp.height }),
              )
            }
          }
          return send.call(this, body)
        }
      })
      await openLoggedIn(page, session, `${app.url}/valuation?lat=${point.lat}&lng=${point.lng}&sheet=1&parcel=5`)

      // The map's point becomes the parcel; its facts come with the counted valuation, not before it.
      await expect
        .poll(() => page.getByTestId('place-label').textContent(), { timeout: 20_000 })
        .toContain('Tờ 1, thửa 5')
      expect(await page.getByTestId('field-area').inputValue()).toBe('')
      await expect.poll(() => new URL(page.url()).search).toBe('')

      await page.getByTestId('photo-input').setInputFiles(photos.slice(0, 2))
      await expect
        .poll(() => page.locator('[data-testid=photo-tile][data-status=uploaded]').count(), { timeout: 30_000 })
        .toBe(2)
      // Resized and re-encoded on the device: the 3000 × 2250 PNGs went up as 2048 × 1536 WebP (or JPEG), each with its own key.
      const recorded = () =>
        page.evaluate(
          () =>
            (window as unknown as { qhUploads: { key: string | null; type: string; width: number; height: number }[] })
              .qhUploads,
        )
      await expect.poll(async () => (await recorded()).length).toBe(2)
      const uploads = await recorded()
      for (const u of uploads) {
        expect(u.type).toMatch(/^image\/(webp|jpeg)$/)
        expect([u.width, u.height]).toEqual([2048, 1536])
        expect(u.key).toMatch(/^[0-9a-f-]{36}$/)
      }
      expect(new Set(uploads.map((u) => u.key)).size).toBe(2)

      const valuationRequest = page.waitForRequest((r) => r.url().endsWith('/api/valuation'))
      await page.getByTestId('valuate').click()
      const sent = JSON.parse((await valuationRequest).postData() ?? '{}')
      expect(sent).toMatchObject({ image_ids: [expect.any(String), expect.any(String)] })
      // Nothing typed: the server takes the parcel's own area.
      expect(sent).not.toHaveProperty('area_m2')

      const result = page.getByTestId('valuation-result')
      await result.waitFor({ timeout: 30_000 })
      await expect
        .poll(() => page.getByTestId('market-range').innerText())
        .toMatch(/Thấp\s+[\d,]+ (tỷ|triệu)\s+–\s+Giữa\s+[\d,]+ (tỷ|triệu)\s+–\s+Cao\s+[\d,]+ (tỷ|triệu)/)
      expect(await page.getByTestId('market-estimate').innerText()).toMatch(/Đơn giá: [\d.]+ đ\/m²/)
      expect(await page.getByTestId('state-position').innerText()).toMatch(/^VT[1-4]$/)
      expect(await page.getByTestId('state-price').innerText()).toMatch(/Vị trí [1-4]: /)
      expect(await page.getByTestId('comparable-row').count()).toBeGreaterThan(0)
      expect(await page.getByTestId('planning').innerText()).toMatch(/vướng quy hoạch/i)
      expect(await page.getByTestId('disclaimer').innerText()).toContain('không phải chứng thư thẩm định giá')
      // The row of the state price table, the parcel's position marked, and the methods side by side.
      expect(await page.getByTestId('state-price').getByTestId('state-price-row').innerText()).toMatch(
        /VT1[\s\S]*VT2[\s\S]*VT3[\s\S]*VT4/,
      )
      expect(
        await page.locator('[data-testid=state-price] [data-testid=state-price-row] th[data-marked]').count(),
      ).toBe(1)
      expect(await page.getByTestId('market-methods').innerText()).toMatch(
        /So sánh: [\d,]+ (tỷ|triệu)\/m² · dùng 100 %/,
      )
      await page.getByTestId('comparables-map').locator('canvas').first().waitFor({ timeout: 20_000 })
      // A valuation and the parcel's planning: two counted lookups, shown in the header.
      await expect.poll(() => page.getByTestId('usage-counter').textContent()).toBe('còn 18/20 lượt hôm nay')

      await page.getByTestId('photo-input').setInputFiles(photos.slice(2, 5))
      await expect.poll(() => page.getByTestId('photo-messages').innerText()).toBe('Tối đa 4 hình ảnh.')
      await expect.poll(() => page.getByTestId('photo-tile').count()).toBe(4)
      await expect
        .poll(() => page.locator('[data-testid=photo-tile][data-status=uploaded]').count(), { timeout: 30_000 })
        .toBe(4)
      expect(await page.getByTestId('photo-messages').innerText()).toBe('Tối đa 4 hình ảnh.')

      // Print: the report alone, on one A4 page. The map image comes from the map once it has drawn.
      await expect.poll(() => page.locator('.pr-map img').count(), { timeout: 20_000 }).toBe(1)
      await page.emulateMedia({ media: 'print' })
      expect(await page.getByTestId('print-report').isVisible()).toBe(true)
      expect(await page.locator('.valuation-screen').isVisible()).toBe(false)
      const report = await page.getByTestId('print-report').innerText()
      expect(report).toContain('Tờ 1, thửa 5')
      expect(report).toMatch(/Giá thị trường ước tính\s+[\d,]+ (tỷ|triệu) – [\d,]+ (tỷ|triệu) – [\d,]+ (tỷ|triệu)/)
      expect(report).toMatch(/Nguồn dữ liệu: /)
      // Every comparable the map numbers, with its adjusted price and weight, and the disclaimer.
      const shown = Math.min(await page.getByTestId('comparable-row').count(), 10)
      expect(await page.locator('[data-testid=print-comparables] tbody tr').count()).toBe(shown)
      expect(await page.getByTestId('print-comparables').innerText()).toMatch(/Sau điều chỉnh\/m²\s+Trọng số/)
      expect(await page.getByTestId('print-disclaimer').innerText()).toContain('không phải chứng thư thẩm định giá')
      expect(report).toMatch(/VT1[\s\S]*VT4/)
      // The report shows the photos of the valuation it reports, not those added since.
      expect(await page.locator('.pr-photos img').count()).toBe(2)
      const pdf = join(out, 'valuation-report.pdf')
      const printed = await page.pdf({ format: 'A4', printBackground: true })
      writeFileSync(pdf, printed)
      // Pages counted by a PDF parser, so the check needs no poppler; pdftoppm, where present, leaves a picture to look at.
      expect((await PDFDocument.load(printed)).getPageCount()).toBe(1)
      spawnSync('pdftoppm', ['-r', '100', '-png', '-singlefile', pdf, join(out, 'valuation-report')])
      await page.emulateMedia({ media: 'screen' })

      expect(b.consoleErrors).toEqual([])
    } finally {
      await b.close()
    }
  })

  it('keeps the valuation in the history and reopens it without counting; screenshots at phone and desktop size, light and dark; printed from the dark theme the report is black on white', async () => {
    for (const [name, size] of [
      ['phone', phone],
      ['desktop', desktop],
    ] as const) {
      for (const colorScheme of ['light', 'dark'] as const) {
        const b = await launch({ ...size, colorScheme, userDataDir: profile })
        try {
          const { page } = b
          await openLoggedIn(page, session, `${app.url}/valuation`)
          const history = page.getByRole('list', { name: 'Các lần định giá trước' })
          await expect.poll(() => history.getByRole('listitem').count(), { timeout: 20_000 }).toBe(1)
          await history.getByRole('button', { name: /^Xem lại: .*Tờ 1, thửa 5/ }).click()
          await page.getByTestId('valuation-result').waitFor()
          expect(await page.getByTestId('valuation-result').innerText()).toMatch(
            /Kết quả lưu lúc \d{2}:\d{2} \d{2}\/\d{2}\/\d{4} \(không tính thêm lượt\)/,
          )
          await page.getByTestId('comparables-map').locator('canvas').first().waitFor({ timeout: 20_000 })
          await page.waitForTimeout(1500)
          await page.screenshot({ path: join(out, `valuation-${name}-${colorScheme}.png`), fullPage: true })
          expect(await page.evaluate(() => document.documentElement.scrollWidth <= window.innerWidth)).toBe(true)
          if (colorScheme === 'dark') {
            // Printed from the dark theme, the paper is still white and the parcel's price readable.
            await page.emulateMedia({ media: 'print' })
            const printed = await page.evaluate(() => {
              const marked = document.querySelector('.print-report .vt-row td[data-marked]')
              const style = (e: Element) => getComputedStyle(e)
              return {
                page: style(document.documentElement).backgroundColor,
                scheme: style(document.body).colorScheme,
                marked: marked ? [style(marked).color, style(marked).backgroundColor] : null,
              }
            })
            expect(printed).toEqual({
              page: 'rgb(255, 255, 255)',
              scheme: 'light',
              marked: ['rgb(0, 0, 0)', 'rgb(208, 235, 255)'],
            })
            await page.emulateMedia({ media: 'screen' })
          }
          expect(b.consoleErrors).toEqual([])
        } finally {
          await b.close()
        }
      }
    }
    const usage = await api<{ count: number }>(app, '/api/auth/usage', {}, session.token)
    expect(usage.body.data.count).toBe(2)
    expect(existsSync(join(out, 'valuation-phone-dark.png'))).toBe(true)
  })
})
