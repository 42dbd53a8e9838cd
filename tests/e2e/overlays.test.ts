import { spawnSync } from 'node:child_process'
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join, resolve } from 'node:path'
import sharp from 'sharp'
import type { Page } from 'playwright-core'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { fillDataDir } from '../support/prepared-data.ts'
import { desktop, launch, mapReady, phone, startApp, type RunningApp } from './harness.ts'

/**
 * Raster planning overlays in Chromium against the real server: a scanned sheet imported with the
 * command line before the server starts, saved with an area and drawn from the device with the
 * network cut.
 */

const root = resolve(import.meta.dirname, '../..')
// The demo ward; the sheet is a 560 m square of one deep blue around it, so its pixels are easy to count.
const AREA = { lat: 10.7955, lng: 106.7 }
const BLUE = { r: 20, g: 60, b: 220 }
const PX = 0.000005
const SIZE = 1024
const OVERLAY_ID = 'qhpk-e2e'

let app: RunningApp
const dirs: string[] = []
const tempDir = (prefix: string) => {
  const d = mkdtempSync(join(tmpdir(), prefix))
  dirs.push(d)
  return d
}

/** Pixels of the map that show the sheet's blue at full strength. */
async function bluePixels(page: Page): Promise<number> {
  const shot = await page.getByTestId('map').screenshot()
  const { data, info } = await sharp(shot).removeAlpha().raw().toBuffer({ resolveWithObject: true })
  let n = 0
  for (let i = 0; i < info.width * info.height * 3; i += 3) {
    if (
      Math.abs(data[i]! - BLUE.r) < 30 &&
      Math.abs(data[i + 1]! - BLUE.g) < 30 &&
      Math.abs(data[i + 2]! - BLUE.b) < 30
    )
      n++
  }
  return n
}

/**
 * The median colour of a 32 px square of the map's screenshot 80 px up and left of its centre (clear of the
 * centre cross, well inside the sheet at z17): the median, so a parcel line or number crossing it does not count.
 */
async function sheetColour(page: Page): Promise<{ r: number; g: number; b: number }> {
  const shot = await page.getByTestId('map').screenshot()
  const img = sharp(shot)
  const { width = 0, height = 0 } = await img.metadata()
  const side = 32
  const { data } = await img
    .extract({
      left: Math.round(width / 2 - 80 - side / 2),
      top: Math.round(height / 2 - 80 - side / 2),
      width: side,
      height: side,
    })
    .removeAlpha()
    .raw()
    .toBuffer({ resolveWithObject: true })
  const median = (channel: number) => {
    const v: number[] = []
    for (let i = channel; i < data.length; i += 3) v.push(data[i]!)
    return v.sort((a, b) => a - b)[v.length >> 1]!
  }
  return { r: median(0), g: median(1), b: median(2) }
}

/** How far a colour is from the sheet's blue (Euclidean in RGB). */
const fromBlue = (c: { r: number; g: number; b: number }) => Math.hypot(c.r - BLUE.r, c.g - BLUE.g, c.b - BLUE.b)

beforeAll(async () => {
  const data = tempDir('qh-ov-data-')
  // The sheet is imported into the data a first start makes, as it would be on a running installation.
  await fillDataDir(data)
  const sheets = tempDir('qh-ov-sheet-')
  const file = join(sheets, 'qhpk-e2e.png')
  const raw = Buffer.alloc(SIZE * SIZE * 3)
  for (let i = 0; i < raw.length; i += 3) raw.set([BLUE.r, BLUE.g, BLUE.b], i)
  writeFileSync(
    file,
    await sharp(raw, { raw: { width: SIZE, height: SIZE, channels: 3 } })
      .png()
      .toBuffer(),
  )
  const west = AREA.lng - (SIZE / 2) * PX
  const north = AREA.lat + (SIZE / 2) * PX
  writeFileSync(join(sheets, 'qhpk-e2e.pgw'), [PX, 0, 0, -PX, west + PX / 2, north - PX / 2].join('\n'))
  const imported = spawnSync(
    process.execPath,
    [
      'server/src/cli/import.ts',
      file,
      '--kind',
      'overlay',
      '--id',
      OVERLAY_ID,
      '--name',
      'QHPK thử nghiệm',
      '--plan-level',
      'QHPK',
      '--decision-no',
      '4321/QĐ-UBND',
      '--approved-at',
      '2024-06-15',
      '--crs',
      'EPSG:4326',
    ],
    { cwd: root, encoding: 'utf8', env: { ...process.env, DATA_DIR: data, DATABASE_URL: '' } },
  )
  expect(imported.status, imported.stderr).toBe(0)
  app = await startApp({ dataDir: data })
}, 600_000)

afterAll(async () => {
  await app?.stop()
  for (const d of dirs) rmSync(d, { recursive: true, force: true })
})

describe('raster planning overlays in Chromium', () => {
  it('turns the overlay on in the layers panel and fades it with its slider, and the map under the sheet changes colour with each', async () => {
    const b = await launch(desktop)
    try {
      const { page } = b
      await page.goto(`${app.url}/demo#/${AREA.lat}/${AREA.lng}/17`)
      await mapReady(page)
      await page.getByTestId('layers-button').click()
      const entry = page.getByTestId(`overlay-${OVERLAY_ID}`)
      await entry.waitFor({ timeout: 30_000 })
      // The parcels are drawn over the sheet, their lines and numbers (each shown from z17, however narrow its
      // parcel) covering most of any square here: off, so the colour sampled is the sheet's and what lies under it.
      await page.getByRole('checkbox', { name: /Ranh thửa và số thửa/ }).uncheck()
      // Off until turned on: the centre shows the demo ward's own drawing, far from the sheet's blue.
      await expect.poll(async () => fromBlue(await sheetColour(page)), { timeout: 30_000 }).toBeGreaterThan(120)
      const off = await sheetColour(page)

      await entry.getByRole('checkbox').check()
      const slider = entry.getByRole('slider')
      await slider.focus()
      await page.keyboard.press('End')
      await expect.poll(() => entry.textContent()).toContain('Độ đậm: 100%')
      await expect.poll(async () => fromBlue(await sheetColour(page)), { timeout: 30_000 }).toBeLessThan(25)

      // Faded to a tenth, the centre is back near its own colours but still tinted by the sheet.
      await page.keyboard.press('Home')
      await expect.poll(() => entry.textContent()).toContain('Độ đậm: 10%')
      await expect.poll(async () => fromBlue(await sheetColour(page)), { timeout: 30_000 }).toBeGreaterThan(80)
      const faint = await sheetColour(page)
      expect(fromBlue(faint)).toBeLessThan(fromBlue(off))
      expect(faint.b - (faint.r + faint.g) / 2).toBeGreaterThan(off.b - (off.r + off.g) / 2)

      await entry.getByRole('checkbox').uncheck()
      await expect
        .poll(async () => fromBlue(await sheetColour(page)), { timeout: 30_000 })
        .toBeGreaterThan(fromBlue(faint))
      // The choice is remembered on the device.
      const stored = await page.evaluate(() => localStorage.getItem('qh.overlay-choices'))
      expect(JSON.parse(stored ?? '{}')).toEqual({ [OVERLAY_ID]: { on: false, opacity: 0.1 } })
      expect(b.consoleErrors).toEqual([])
    } finally {
      await b.close()
    }
  })

  it('saves the overlay’s tiles with an area and draws them from the device with the network cut', async () => {
    const profile = tempDir('qh-ov-profile-')
    const first = await launch({ ...phone, userDataDir: profile })
    try {
      const { page } = first
      await first.context.addInitScript(() =>
        localStorage.setItem('qh.overlay-choices', JSON.stringify({ 'qhpk-e2e': { on: true, opacity: 1 } })),
      )
      await page.goto(`${app.url}/demo#/${AREA.lat}/${AREA.lng}/16`)
      await page.waitForFunction(() => navigator.serviceWorker.controller !== null, undefined, { timeout: 30_000 })
      await page.reload()
      await mapReady(page)
      await page.getByTestId('save-area-button').click()
      await page.getByTestId('save-area-panel').waitFor()
      await page.getByTestId('save-area-to').selectOption('17')
      await page.getByTestId('save-area-from').selectOption('16')
      await expect
        .poll(() => page.getByTestId('save-area-estimate').textContent(), { timeout: 30_000 })
        .toMatch(/^khoảng /)
      await page.getByTestId('save-area-name').fill('Khu có bản đồ quét')
      await page.getByTestId('save-area-start').click()
      await page.locator('[data-testid=save-area-progress][data-status=done]').waitFor({ timeout: 120_000 })
      const saved = await page.evaluate(async () =>
        (await (await caches.open('tiles-saved-v1')).keys()).map((r) => new URL(r.url).pathname),
      )
      expect(saved.filter((p) => p.startsWith('/tiles/raster/qhpk-e2e/')).length).toBeGreaterThan(0)
      await page.evaluate(() => caches.delete('tiles-v1'))
    } finally {
      await first.close()
    }

    const again = await launch({ ...phone, userDataDir: profile })
    try {
      const { page } = again
      await again.context.setOffline(true)
      const raster: { status: number; fromWorker: boolean }[] = []
      page.on('response', (r) => {
        if (new URL(r.url()).pathname.startsWith('/tiles/raster/'))
          raster.push({ status: r.status(), fromWorker: r.fromServiceWorker() })
      })
      await page.goto(`${app.url}/demo#/${AREA.lat}/${AREA.lng}/17`)
      await mapReady(page)
      await expect.poll(() => bluePixels(page), { timeout: 30_000 }).toBeGreaterThan(50_000)
      expect(raster.length).toBeGreaterThan(0)
      expect(raster.every((r) => r.fromWorker && r.status === 200)).toBe(true)
    } finally {
      await again.close()
    }
  })
})
