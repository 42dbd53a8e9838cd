import { mkdirSync, readFileSync } from 'node:fs'
import { join, resolve } from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { fromVn2000, toVn2000 } from '#core/geo/vn2000.ts'
import { launch, phone, startApp, type RunningApp } from './harness.ts'

/**
 * A GNSS receiver in the field, at phone size against the real built server: a fake `navigator.serial`
 * put in before the page loads streams a receiver log (NMEA as a receiver writes it, checksums and all):
 * RTK fixed while walking to a parcel's corner, a float episode, a silence of 4 s, fixed again. The app
 * finds the baud rate, shows the fix types, turns red when stale, refuses a capture under the gate,
 * guides to the corner until it turns green, averages a point to the expected mean, and keeps the mark.
 */

const shots = resolve(import.meta.dirname, '../../out')
mkdirSync(shots, { recursive: true })
const PASSWORD = 'mat-khau-may-thu-1'
const POINT = { lat: 10.7955, lng: 106.7 }

let app: RunningApp
let session: Record<string, unknown>
let meridian: number

beforeAll(async () => {
  app = await startApp()
  const post = (path: string, json: unknown) =>
    fetch(`${app.url}${path}`, {
      method: 'POST',
      headers: { 'Content-Type': 'application/json' },
      body: JSON.stringify(json),
    })
  const email = `gnss-${Date.now().toString(36)}@example.com`
  expect((await post('/api/auth/register', { name: 'Người Cắm Mốc', email, password: PASSWORD })).status).toBe(201)
  const login = (await (await post('/api/auth/login', { email, password: PASSWORD })).json()) as {
    data: { access_token: string; expires_at: string; name: string }
  }
  session = {
    userName: login.data.name,
    token: login.data.access_token,
    expiresAt: login.data.expires_at,
    isLogin: true,
    isOpenLogin: false,
  }
  const planning = (await (
    await fetch(`${app.url}/api/planning?lat=${POINT.lat}&lng=${POINT.lng}`, {
      headers: { Authorization: `Bearer ${login.data.access_token}` },
    })
  ).json()) as { data: { location: { vn2000: { zone_meridian: number } } } }
  meridian = planning.data.location.vn2000.zone_meridian
})

afterAll(async () => {
  await app?.stop()
})

/** A sentence with its checksum (XOR of the characters between '$' and '*'). */
function nmea(body: string): string {
  let sum = 0
  for (const ch of body) sum ^= ch.charCodeAt(0)
  return `$${body}*${sum.toString(16).toUpperCase().padStart(2, '0')}`
}
const dm = (deg: number, width: number) => {
  const d = Math.floor(deg)
  return `${String(d).padStart(width, '0')}${((deg - d) * 60).toFixed(8).padStart(11, '0')}`
}
/** One epoch as a multi-constellation RTK receiver sends it: GGA, GST, RMC, at second `i` of the log. */
function epoch(i: number, at: { lat: number; lng: number }, quality: 4 | 5, sigma: number): string {
  const t = `${String(3 + Math.floor(i / 3600)).padStart(2, '0')}${String(Math.floor(i / 60) % 60).padStart(2, '0')}${String(i % 60).padStart(2, '0')}.00`
  const lat = dm(at.lat, 2)
  const lng = dm(at.lng, 3)
  return [
    nmea(`GNGGA,${t},${lat},N,${lng},E,${quality},24,0.6,7.512,M,-2.318,M,1.0,0001`),
    nmea(`GNGST,${t},0.012,,,,${sigma.toFixed(3)},${sigma.toFixed(3)},${(sigma * 2).toFixed(3)}`),
    nmea(`GNRMC,${t},A,${lat},N,${lng},E,0.05,0.0,271126,,,${quality === 4 ? 'R' : 'F'},V`),
  ].join('\r\n')
}

/**
 * The fake Web Serial port: it reads NMEA only at 115200 baud (other rates hear noise, as a real port
 * would), and plays epochs the test hands it every 200 ms, then repeats the last `loop` of them (a
 * receiver standing still) until told otherwise; `silence()` stops it, as a dropped Bluetooth link.
 */
function fakeSerial() {
  type Ctl = ReadableStreamDefaultController<Uint8Array>
  const enc = new TextEncoder()
  let controller: Ctl | null = null
  let baud = 0
  let queue: string[] = []
  let loop: string[] = []
  let k = 0
  setInterval(() => {
    if (!controller) return
    if (baud !== 115200) return controller.enqueue(Uint8Array.from({ length: 64 }, (_, i) => (i * 37 + k++) % 256))
    const next = queue.shift() ?? (loop.length ? loop[k++ % loop.length] : undefined)
    if (next) controller.enqueue(enc.encode(`${next}\r\n`))
  }, 200)
  const port = {
    readable: null as ReadableStream<Uint8Array> | null,
    async open(o: { baudRate: number }) {
      baud = o.baudRate
      port.readable = new ReadableStream<Uint8Array>({ start: (c) => void (controller = c) })
    },
    async close() {
      controller = null
      port.readable = null
    },
    getInfo: () => ({ bluetoothServiceClassId: '00001101-0000-1000-8000-00805f9b34fb' }),
  }
  Object.defineProperty(navigator, 'serial', {
    value: {
      requestPort: async () => port,
      getPorts: async () => [],
      addEventListener() {},
      removeEventListener() {},
    },
  })
  Object.assign(window, {
    gnssPlay(epochs: string[], repeat: number) {
      queue = epochs.slice(0, epochs.length - repeat)
      loop = epochs.slice(epochs.length - repeat)
      k = 0
    },
    gnssSilence() {
      queue = []
      loop = []
    },
  })
}

describe('a GNSS receiver at 390×844', () => {
  it('connects over Web Serial, guides to a corner until green, goes red when stale, gates and averages', async () => {
    const b = await launch(phone)
    try {
      const { page, context } = b
      await context.addInitScript((s) => localStorage.setItem('qh.session', JSON.stringify(s)), session)
      await context.addInitScript(fakeSerial)
      await page.goto(`${app.url}/demo#/${POINT.lat}/${POINT.lng}/19/sel/${POINT.lat},${POINT.lng}`)
      await expect.poll(() => page.getByTestId('result-title').count(), { timeout: 30_000 }).toBe(1)
      // The lookup is in the device's history before stakeout reads the corners from it.
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
      await page.getByTestId('result-card').getByRole('link', { name: 'Cắm mốc' }).click()
      const corner = page.getByTestId('corner-1')
      await expect
        .poll(() => corner.count(), { timeout: 20_000 })
        .toBe(1)
        .catch(async (err: unknown) => {
          await page.screenshot({ path: join(shots, 'gnss-no-corner.png'), fullPage: true })
          console.log(b.consoleErrors)
          throw err
        })
      const c = {
        lat: Number(await corner.getAttribute('data-lat')),
        lng: Number(await corner.getAttribute('data-lng')),
      }
      const target = toVn2000(c.lat, c.lng, meridian)
      /** A place `north` and `east` metres from the corner. */
      const near = (north: number, east: number) => fromVn2000(target.x + north, target.y + east, meridian)
      let second = 0
      const fixed = (north: number, east: number) => epoch(second++, near(north, east), 4, 0.008)
      const play = (epochs: string[], repeat = 1) =>
        page.evaluate(([e, r]) => (window as any).gnssPlay(e, r), [epochs, repeat] as const)

      // Standing 3 m south and 2 m west of the corner, RTK fixed; then the receiver is connected.
      await play([fixed(-3, -2)])
      await corner.click()
      await page.getByText('Nguồn định vị, máy thu và độ chính xác tối thiểu').click()
      await page.getByTestId('accuracy-gate').selectOption('0.05')
      await page.getByRole('button', { name: 'Kết nối máy thu' }).click()
      const status = page.getByTestId('position-status').first()
      await expect.poll(() => status.getAttribute('data-quality'), { timeout: 15_000 }).toBe('rtk-fixed')
      expect(await status.innerText()).toMatch(/Máy thu · RTK cố định · ± 1 cm · 24 vệ tinh/)
      expect(await page.getByTestId('receiver-connected').innerText()).toMatch(/115200 baud/)
      const guidance = page.getByTestId('stakeout-guidance')
      await expect.poll(() => guidance.getAttribute('data-state')).toBe('far')
      expect(await page.getByTestId('stakeout-words').innerText()).toBe('Đi về phía Bắc 3 m, phía Đông 2 m')
      await page.getByTestId('gps-settings').scrollIntoViewIfNeeded()
      await page.screenshot({ path: join(shots, 'gnss-receiver-panel-phone-light.png') })
      await page.emulateMedia({ colorScheme: 'dark' })
      await page.screenshot({ path: join(shots, 'gnss-receiver-panel-phone-dark.png') })
      await page.emulateMedia({ colorScheme: 'light', contrast: 'more' })
      await page.screenshot({ path: join(shots, 'gnss-receiver-panel-phone-contrast.png') })
      await page.emulateMedia({ contrast: 'no-preference' })

      // The walk to the corner in ten steps, then standing on it with a centimetre of jitter.
      const walk = Array.from({ length: 10 }, (_, i) => fixed(-3 + 0.3 * (i + 1), -2 + 0.2 * (i + 1)))
      await play([...walk, fixed(0.014, -0.006), fixed(0.006, -0.006)], 2)
      await expect.poll(() => guidance.getAttribute('data-state'), { timeout: 15_000 }).toBe('reached')
      expect(await page.getByTestId('stakeout-words').innerText()).toMatch(/^Đã tới mốc \(trong phạm vi 5 cm\)$/)
      // Standing 15 mm and 8 mm from the corner in turn: centimetres, never "0,01 m".
      await expect.poll(() => page.getByTestId('stakeout-distance').innerText()).toMatch(/^[12] cm$/)
      await page.getByTestId('stakeout-target').scrollIntoViewIfNeeded()
      await page.screenshot({ path: join(shots, 'gnss-stakeout-phone-light.png') })
      await page.emulateMedia({ colorScheme: 'dark' })
      await page.screenshot({ path: join(shots, 'gnss-stakeout-phone-dark.png') })
      await page.emulateMedia({ colorScheme: 'light', contrast: 'more' })
      await page.screenshot({ path: join(shots, 'gnss-stakeout-phone-contrast.png') })
      await page.emulateMedia({ contrast: 'no-preference' })

      // A float episode: red at once, and no capture until accepted; accepted, the 5 cm gate still refuses it.
      await play([epoch(second++, near(0.01, -0.006), 5, 0.25)], 1)
      await expect.poll(() => status.getAttribute('data-status'), { timeout: 10_000 }).toBe('dropped')
      expect(await status.getAttribute('data-alarm')).toBe('true')
      // Float takes HDOP × 0.5 m until its own GST arrives, never the fixed solution's centimetres.
      await expect.poll(() => status.innerText()).toMatch(/CHẤT LƯỢNG GIẢM — Máy thu · RTK thả nổi · ± 35 cm/)
      await page.getByRole('button', { name: 'Đã tìm thấy mốc' }).click()
      expect(await page.getByTestId('mark-refused').innerText()).toMatch(
        /Chất lượng định vị vừa giảm xuống RTK thả nổi/,
      )
      await page.getByRole('button', { name: 'Chấp nhận mức RTK thả nổi' }).click()
      await expect.poll(() => status.getAttribute('data-status')).toBe('live')
      await page.getByRole('button', { name: 'Đã tìm thấy mốc' }).click()
      expect(await page.getByTestId('mark-refused').innerText()).toMatch(
        /Sai số ± 35 cm lớn hơn mức tối thiểu đã đặt \(5 cm\)/,
      )

      // Four seconds of silence: stale, red, no guidance.
      await page.evaluate(() => (window as any).gnssSilence())
      await expect.poll(() => status.getAttribute('data-status'), { timeout: 10_000 }).toBe('stale')
      expect(await status.innerText()).toMatch(/^MẤT TÍN HIỆU/)
      expect(await page.getByTestId('stakeout-no-guidance').count()).toBe(1)
      await page.screenshot({ path: join(shots, 'gnss-stale-phone-light.png') })
      // The log's silence lasts 4 s: a second more than the 3 s it took to turn stale.
      await page.waitForTimeout(1000)

      // Fixed again: averaging ten fixes finds the mean of the jitter, 1 cm north and 6 mm west of the corner.
      await play([fixed(0.014, -0.006), fixed(0.006, -0.006)], 2)
      await expect.poll(() => guidance.getAttribute('data-state'), { timeout: 15_000 }).toBe('reached')
      await page.getByRole('button', { name: 'Đo điểm trung bình' }).click()
      const averaged = page.getByTestId('averaged-point')
      await expect.poll(() => averaged.count(), { timeout: 20_000 }).toBe(1)
      expect(Number(await averaged.getAttribute('data-x')) - target.x).toBeCloseTo(0.01, 3)
      expect(Number(await averaged.getAttribute('data-y')) - target.y).toBeCloseTo(-0.006, 3)
      // Five samples at +14 mm and five at +6 mm: σ = 4 mm × √(10/9).
      expect(Number(await averaged.getAttribute('data-sigma'))).toBeCloseTo(0.004 * Math.sqrt(10 / 9), 3)
      await page.getByRole('button', { name: 'Đã tìm thấy mốc' }).click()
      const results = page.getByTestId('stakeout-results')
      await expect.poll(() => results.locator('li').count()).toBe(1)
      expect(await results.innerText()).toMatch(
        /Góc 1: Đã tìm thấy mốc — lệch 1 cm so với toạ độ ghi, ± 1 cm, RTK cố định, trung bình 10 lần/,
      )

      const [download] = await Promise.all([
        page.waitForEvent('download'),
        page.getByRole('button', { name: 'Tải CSV' }).click(),
      ])
      const row = readFileSync((await download.path())!, 'utf8')
        .trim()
        .split('\r\n')[1]!
      expect(row).toMatch(new RegExp(`^Góc 1,.*,đã tìm thấy mốc,.*,${target.x.toFixed(3)},${target.y.toFixed(3)},`))
      expect(b.consoleErrors).toEqual([])
    } finally {
      await b.close()
    }
  })
})
