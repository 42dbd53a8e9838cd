import { mkdtempSync, readdirSync, rmSync, statSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import sharp from 'sharp'
import type { Page, Response as PwResponse } from 'playwright-core'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import {
  desktop,
  launch,
  mapReady,
  paintedPixels,
  phone,
  serveOn,
  type Browser,
  type RunningApp,
  startApp,
} from './harness.ts'

/**
 * Offline field use in Chromium with persistent profiles against the real built server: recent map
 * tiles and lookups that reopen with the network cut, a saved area that renders at every saved zoom
 * after the browser restarts offline, a valuation asked offline that runs after a reload once the link
 * returns, photos queued offline that reach the server exactly once after a restart, and a small recent-tile cap that evicts recent tiles but never saved ones.
 */

const PASSWORD = 'mat-khau-offline-1'
const AREA = { lat: 10.7955, lng: 106.7 }

let app: RunningApp
let session: { userName: string; token: string; expiresAt: string; isLogin: boolean; isOpenLogin: boolean }
const dirs: string[] = []
const tempDir = (prefix: string) => {
  const d = mkdtempSync(join(tmpdir(), prefix))
  dirs.push(d)
  return d
}

async function api<T>(
  path: string,
  init: { method?: string; json?: unknown; token?: string } = {},
): Promise<{ status: number; body: { data: T } }> {
  const res = await fetch(`${app.url}${path}`, {
    method: init.method ?? 'GET',
    headers: { 'Content-Type': 'application/json', ...(init.token ? { Authorization: `Bearer ${init.token}` } : {}) },
    body: init.json === undefined ? undefined : JSON.stringify(init.json),
  })
  return { status: res.status, body: (await res.json()) as { data: T } }
}

const usageCount = async () =>
  (await api<{ count: number }>('/api/auth/usage', { token: session.token })).body.data.count

/** Stored uploads on the server's disk (one image and one thumbnail per upload). */
function uploadsOnDisk(): number {
  const root = join(app.dataDir, 'uploads')
  const walk = (d: string): string[] => {
    try {
      return readdirSync(d).flatMap((n) => (statSync(join(d, n)).isDirectory() ? walk(join(d, n)) : [n]))
    } catch {
      return []
    }
  }
  return walk(root).filter((n) => !n.startsWith('.tmp-') && !n.includes('-thumb.')).length
}

/** A browser on a profile that survives closing it, logged in, with the app's worker in control. */
async function openApp(
  profile: string,
  path: string,
  opts: { offline?: boolean; viewport?: typeof desktop } = {},
): Promise<Browser> {
  const b = await launch({ ...(opts.viewport ?? desktop), userDataDir: profile })
  await b.context.addInitScript((s) => localStorage.setItem('qh.session', JSON.stringify(s)), session)
  if (opts.offline) await b.context.setOffline(true)
  await b.page.goto(`${app.url}${path}`)
  await b.page.waitForFunction(() => navigator.serviceWorker.controller !== null, undefined, { timeout: 30_000 })
  return b
}

/** Tile answers the page gets from here on: which came from the worker, and which failed. */
function watchTiles(page: Page) {
  const answered: { url: string; status: number; fromWorker: boolean }[] = []
  const failed: string[] = []
  let last = Date.now()
  let inFlight = 0
  const isTile = (u: string) => /\/tiles\/\w+\/\d+\/\d+\/\d+\.pbf$/.test(new URL(u).pathname)
  page.on('request', (r) => {
    if (!isTile(r.url())) return
    inFlight += 1
    last = Date.now()
  })
  page.on('response', (r: PwResponse) => {
    if (!isTile(r.url())) return
    answered.push({ url: r.url(), status: r.status(), fromWorker: r.fromServiceWorker() })
  })
  page.on('requestfinished', (r) => {
    if (!isTile(r.url())) return
    inFlight -= 1
    last = Date.now()
  })
  page.on('requestfailed', (r) => {
    if (!isTile(r.url())) return
    inFlight -= 1
    last = Date.now()
    failed.push(r.url())
  })
  return {
    answered,
    failed,
    /** Resolves once no tile request has been running for a moment (the map has what it asked for). */
    async settled() {
      await expect.poll(() => inFlight <= 0 && Date.now() - last > 1200, { timeout: 60_000, interval: 300 }).toBe(true)
    },
    atZoom(z: number) {
      const re = new RegExp(`/tiles/(\\w+)/${z}/`)
      return {
        answered: answered.filter((a) => re.test(a.url)),
        failed: failed.filter((u) => re.test(u)),
        layers: new Set(answered.filter((a) => re.test(a.url)).map((a) => re.exec(a.url)![1])),
      }
    },
  }
}

/** Entries in an idb-keyval store (0 while it does not exist yet). */
function idbCount(page: Page, db: string, store: string): Promise<number> {
  return page.evaluate(
    ([db, store]) =>
      new Promise<number>((done) => {
        const open = indexedDB.open(db)
        open.onupgradeneeded = () => open.result.createObjectStore(store)
        open.onerror = () => done(-1)
        open.onsuccess = () => {
          const req = open.result.transaction(store).objectStore(store).count()
          req.onsuccess = () => done(req.result)
        }
      }),
    [db, store] as const,
  )
}

const cacheCount = (page: Page, name: string) =>
  page.evaluate(async (n) => ((await caches.has(n)) ? (await (await caches.open(n)).keys()).length : 0), name)

async function mapCentre(page: Page) {
  const box = (await page.getByTestId('map').boundingBox())!
  return { x: box.x + box.width / 2, y: box.y + box.height / 2 }
}

/** Opens the save panel, picks the zooms and downloads; resolves with the stored area once it is done. */
async function saveArea(page: Page, name: string, from: number, to: number) {
  await page.getByTestId('save-area-button').click()
  await page.getByTestId('save-area-panel').waitFor()
  await page.getByTestId('save-area-to').selectOption(String(to))
  await page.getByTestId('save-area-from').selectOption(String(from))
  await expect.poll(() => page.getByTestId('save-area-estimate').textContent(), { timeout: 30_000 }).toMatch(/^khoảng /)
  await page.getByTestId('save-area-name').fill(name)
  const started = Date.now()
  await page.getByTestId('save-area-start').click()
  await page.locator('[data-testid=save-area-progress][data-status=done]').waitFor({ timeout: 120_000 })
  const seconds = (Date.now() - started) / 1000
  const area = await page.evaluate(
    () =>
      new Promise<{ total: number; bytes: number; failed: number; minZoom: number; maxZoom: number }>((done, fail) => {
        const open = indexedDB.open('qh-offline-areas')
        open.onerror = () => fail(open.error)
        open.onsuccess = () => {
          const req = open.result.transaction('areas').objectStore('areas').getAll()
          req.onsuccess = () => done(req.result[0])
        }
      }),
  )
  return { ...area, seconds }
}

beforeAll(async () => {
  // Its own data directory, kept when the server stops: the photo test cuts the server off and brings it back.
  app = await startApp({ dataDir: tempDir('qh-off-data-') })
  const email = `offline-${Date.now().toString(36)}@example.com`
  expect(
    (await api('/api/auth/register', { method: 'POST', json: { name: 'Người Khảo Sát', email, password: PASSWORD } }))
      .status,
  ).toBe(201)
  const login = await api<{ access_token: string; expires_at: string; name: string }>('/api/auth/login', {
    method: 'POST',
    json: { email, password: PASSWORD },
  })
  session = {
    userName: login.body.data.name,
    token: login.body.data.access_token,
    expiresAt: login.body.data.expires_at,
    isLogin: true,
    isOpenLogin: false,
  }
})

afterAll(async () => {
  await app?.stop()
  for (const d of dirs) rmSync(d, { recursive: true, force: true })
})

describe('offline field use in Chromium', () => {
  it('reopens a browsed area and its lookup with the network cut: tiles from the worker, the stored result without counting, the history', async () => {
    const b = await openApp(tempDir('qh-off-browse-'), `/demo#/${AREA.lat}/${AREA.lng}/17`)
    try {
      const { page, context } = b
      // The first visit installed the worker; from this load on it serves (and keeps) the tiles.
      await page.reload()
      const viewed = watchTiles(page)
      await mapReady(page)
      await viewed.settled()
      expect(await cacheCount(page, 'tiles-v1')).toBeGreaterThan(0)

      const before = await usageCount()
      const online = await mapCentre(page)
      await page.mouse.click(online.x, online.y)
      const title = page.getByTestId('result-title')
      await expect.poll(() => title.count(), { timeout: 20_000 }).toBe(1)
      const parcel = await title.innerText()
      expect(await usageCount()).toBe(before + 1)
      // The result is in the history (IndexedDB) before the page goes.
      await expect.poll(() => idbCount(page, 'qh-history', 'history')).toBe(1)

      await context.setOffline(true)
      await page.reload()
      const offline = watchTiles(page)
      await mapReady(page)
      await offline.settled()
      const z17 = offline.atZoom(17)
      expect(z17.failed).toEqual([])
      expect(z17.answered.length).toBeGreaterThan(0)
      expect(z17.answered.every((a) => a.fromWorker)).toBe(true)
      expect(await paintedPixels(page)).toBeGreaterThan(1000)
      expect(await page.getByTestId('offline-banner').isVisible()).toBe(true)
      expect(await page.getByTestId('map-data-status').innerText()).toMatch(/^Ngoại tuyến/)

      // The same parcel (the map's centre, which the offline banner has moved down): the stored result, marked with its time, not counted.
      const c = await mapCentre(page)
      await page.mouse.click(c.x, c.y)
      await expect.poll(() => page.getByTestId('stored-result-note').count(), { timeout: 15_000 }).toBe(1)
      expect(await page.getByTestId('stored-result-note').innerText()).toMatch(
        /^Kết quả lưu lúc \d\d:\d\d \d\d\/\d\d\/\d{4}/,
      )
      expect(await page.getByTestId('result-title').innerText()).toBe(parcel)
      await page.getByRole('button', { name: 'Đóng kết quả' }).click()

      // Another parcel, never looked up: what the drawn tiles say, marked offline.
      let found = false
      for (const dx of [90, -90, 150, -150, 60]) {
        await page.mouse.click(c.x + dx, c.y + 40)
        await expect
          .poll(
            () =>
              page
                .locator(
                  '[data-testid=offline-tile-result], [data-testid=offline-no-result], [data-testid=stored-result-note]',
                )
                .count(),
            { timeout: 10_000 },
          )
          .toBeGreaterThan(0)
        if ((await page.getByTestId('offline-tile-result').count()) > 0) {
          expect(await page.getByTestId('offline-parcel-title').innerText()).toMatch(/^Tờ \d+, thửa \d+$/)
          expect(await page.getByTestId('offline-tile-result').innerText()).toContain('Ngoại tuyến')
          found = true
          break
        }
        await page.getByRole('button', { name: 'Đóng kết quả' }).click()
      }
      expect(found).toBe(true)
      expect(await usageCount()).toBe(before + 1)

      await page.goto(`${app.url}/offline?tab=history`)
      const entry = page.getByTestId('history-entry').filter({ hasText: parcel })
      await expect.poll(() => entry.count(), { timeout: 15_000 }).toBeGreaterThan(0)
      await entry.first().getByRole('button', { name: 'Mở' }).click()
      expect(await entry.first().getByTestId('history-details').innerText()).toMatch(/Diện tích/)
      await entry.first().getByRole('button', { name: 'Xem trên bản đồ' }).click()
      await expect.poll(() => page.getByTestId('stored-result-note').count(), { timeout: 20_000 }).toBe(1)
      expect(await page.getByTestId('result-title').innerText()).toBe(parcel)
      expect(await usageCount()).toBe(before + 1)
    } finally {
      await b.close()
    }
  })

  it('saves a small area, and after closing the browser renders every saved zoom there offline', async () => {
    const profile = tempDir('qh-off-saved-')
    // Saved from the widest of its zooms, so the closer views from the same centre lie inside the area.
    const first = await openApp(profile, `/demo#/${AREA.lat}/${AREA.lng}/16`, { viewport: phone })
    let area: Awaited<ReturnType<typeof saveArea>>
    try {
      const { page } = first
      await page.reload()
      await mapReady(page)
      const packs: string[] = []
      page.on('request', (r) => {
        if (new URL(r.url()).pathname === '/tiles/pack') packs.push(r.url())
      })
      area = await saveArea(page, 'Khu khảo sát', 16, 18)
      expect(area).toMatchObject({ minZoom: 16, maxZoom: 18, failed: 0 })
      // Fetched in packs of many tiles, not one request per tile.
      expect(packs.length).toBeGreaterThan(0)
      expect(packs.length).toBeLessThan(area.total / 10)
      expect(await cacheCount(page, 'tiles-saved-v1')).toBe(area.total)
      console.log(
        `saved area: ${area.total} tiles, ${(area.bytes / 1e6).toFixed(2)} MB in ${area.seconds.toFixed(1)} s on loopback`,
      )
      // Only the saved tiles may answer below: the recently viewed ones go.
      await page.evaluate(() => caches.delete('tiles-v1'))
    } finally {
      await first.close()
    }

    const again = await openApp(profile, `/demo#/${AREA.lat}/${AREA.lng}/16`, { offline: true, viewport: phone })
    try {
      const { page } = again
      for (const z of [16, 17, 18]) {
        await page.goto(`${app.url}/demo#/${AREA.lat}/${AREA.lng}/${z}`)
        await page.reload()
        const tiles = watchTiles(page)
        await mapReady(page)
        await tiles.settled()
        const at = tiles.atZoom(z)
        expect(at.failed, `zoom ${z}`).toEqual([])
        expect([...at.layers].sort(), `zoom ${z}`).toEqual(['basemap', 'parcels', 'planning'])
        expect(at.answered.every((a) => a.fromWorker)).toBe(true)
        expect(await paintedPixels(page)).toBeGreaterThan(1000)
        // The saved areas are read from IndexedDB after the status first shows.
        await expect
          .poll(() => page.getByTestId('map-data-status').innerText(), { timeout: 15_000 })
          .toContain('bản đồ đã lưu “Khu khảo sát”')
      }
      // Closer than the area was saved: the parcel lines are drawn from the deepest saved tiles (z18).
      await page.goto(`${app.url}/demo#/${AREA.lat}/${AREA.lng}/20`)
      await page.reload()
      await mapReady(page)
      const tiles = watchTiles(page)
      await tiles.settled()
      await page.screenshot({ path: 'out/offline-z20-phone.png' })
      // A tap reads the parcel's numbers from those tiles.
      await page.getByTestId('map').focus()
      await page.keyboard.press('Enter')
      await expect
        .poll(() => page.getByTestId('offline-parcel-title').textContent(), { timeout: 15_000 })
        .toMatch(/^Tờ \d+, thửa \d+$/)
      await page.goto(`${app.url}/offline`)
      const card = page.getByTestId('saved-area')
      await expect.poll(() => card.count(), { timeout: 15_000 }).toBe(1)
      expect(await card.innerText()).toMatch(/Khu khảo sát[\s\S]*cập nhật vừa xong · mức phóng 16–18/)
    } finally {
      await again.close()
    }
  })

  it('evicts recently viewed tiles under a small cap and never a saved one', async () => {
    const b = await openApp(tempDir('qh-off-cap-'), `/demo#/${AREA.lat}/${AREA.lng}/17`, { viewport: phone })
    try {
      const { page, context } = b
      await page.reload()
      await mapReady(page)
      const area = await saveArea(page, 'Giữ lại', 17, 17)
      expect(await cacheCount(page, 'tiles-saved-v1')).toBe(area.total)

      const CAP = 120_000
      await page.evaluate(async (cap) => {
        await new Promise<void>((done, fail) => {
          const open = indexedDB.open('qh-offline-settings')
          open.onupgradeneeded = () => open.result.createObjectStore('settings')
          open.onerror = () => fail(open.error)
          open.onsuccess = () => {
            const tx = open.result.transaction('settings', 'readwrite')
            tx.objectStore('settings').put(cap, 'recent-tile-cap')
            tx.oncomplete = () => done()
          }
        })
        navigator.serviceWorker.controller!.postMessage({ type: 'TILE_SETTINGS_CHANGED' })
      }, CAP)

      const seen = new Set<string>()
      page.on('response', (r) => {
        if (/\/tiles\/\w+\/\d+\//.test(r.url())) seen.add(r.url())
      })
      for (const [dLat, dLng, z] of [
        [0.004, 0.004, 16],
        [-0.004, -0.004, 16],
        [0.002, -0.003, 18],
        [-0.002, 0.003, 18],
        [0, 0, 15],
      ] as const) {
        await page.goto(`${app.url}/demo#/${AREA.lat + dLat}/${AREA.lng + dLng}/${z}`)
        await page.reload()
        const tiles = watchTiles(page)
        await mapReady(page)
        await tiles.settled()
      }
      const stats = await page.evaluate(
        () =>
          new Promise<{ bytes: number; count: number; capBytes: number }>((done) => {
            const channel = new MessageChannel()
            channel.port1.onmessage = (e) => done(e.data as { bytes: number; count: number; capBytes: number })
            navigator.serviceWorker.controller!.postMessage({ type: 'RECENT_TILE_STATS' }, [channel.port2])
          }),
      )
      expect(stats.capBytes).toBe(CAP)
      expect(stats.bytes).toBeLessThanOrEqual(CAP)
      expect(await cacheCount(page, 'tiles-v1')).toBe(stats.count)
      // Far more tiles went through the cache than it still holds: the oldest were evicted.
      expect(seen.size).toBeGreaterThan(stats.count)
      expect(await cacheCount(page, 'tiles-saved-v1')).toBe(area.total)

      // And the saved zoom still renders with the network cut.
      await context.setOffline(true)
      await page.goto(`${app.url}/demo#/${AREA.lat}/${AREA.lng}/17`)
      await page.reload()
      const tiles = watchTiles(page)
      await mapReady(page)
      await tiles.settled()
      expect(tiles.atZoom(17).failed).toEqual([])
      expect(tiles.atZoom(17).layers.size).toBe(3)
    } finally {
      await b.close()
    }
  })
  it('keeps a valuation asked offline, with its photo, through a reload, and runs it when the link returns: the result in the history, told once', async () => {
    const hits = await api<{ lat: number; lng: number; label: string }[]>(
      `/api/search?q=${encodeURIComponent('tờ 1 thửa 5')}`,
      { token: session.token },
    )
    const point = hits.body.data[0]!
    const photo = join(tempDir('qh-off-val-photo-'), 'mat-tien.jpg')
    await sharp({ create: { width: 1200, height: 900, channels: 3, background: '#0369a1' } })
      .jpeg()
      .toFile(photo)
    const b = await openApp(
      tempDir('qh-off-valuation-'),
      `/valuation?lat=${point.lat}&lng=${point.lng}&sheet=1&parcel=5`,
      { viewport: phone },
    )
    try {
      const { page, context } = b
      await expect
        .poll(() => page.getByTestId('place-label').textContent(), { timeout: 20_000 })
        .toContain('Tờ 1, thửa 5')
      await context.setOffline(true)
      await page.getByTestId('photo-input').setInputFiles([photo])
      await expect
        .poll(() => page.locator('[data-testid=photo-tile][data-status=ready]').count(), { timeout: 30_000 })
        .toBe(1)
      const before = await usageCount()
      await page.getByTestId('valuate').click()
      const waiting = page.locator('[data-testid=valuation-queued][data-state=waiting]')
      await expect.poll(() => waiting.count()).toBe(1)
      expect(await waiting.innerText()).toMatch(
        /^Đã xếp hàng lúc \d\d:\d\d \d\d\/\d\d\/\d{4}: sẽ định giá Tờ 1, thửa 5 khi có mạng/,
      )
      // Kept on the device, the request and its photo, before the page goes.
      await expect.poll(() => idbCount(page, 'qh-valuation-queue', 'queue')).toBe(1)
      await expect.poll(() => idbCount(page, 'qh-outbox', 'items')).toBe(1)

      await page.reload()
      // Back after the reload, still waiting, with its photo: nothing was asked offline.
      await expect.poll(() => waiting.count(), { timeout: 20_000 }).toBe(1)
      await expect.poll(() => page.locator('[data-testid=photo-tile]').count(), { timeout: 20_000 }).toBe(1)
      expect(await usageCount()).toBe(before)

      await context.setOffline(false)
      const done = page
        .getByRole('list', { name: 'Các lần định giá trước' })
        .getByRole('button', { name: /^Xem lại: .*Tờ 1, thửa 5/ })
      await expect.poll(() => done.count(), { timeout: 60_000 }).toBe(1)
      expect(await page.getByTestId('valuation-queued').count()).toBe(0)
      expect(await idbCount(page, 'qh-valuation-queue', 'queue')).toBe(0)
      const told = page.locator('.mantine-Notification-root', {
        hasText: /Đã định giá .*Tờ 1, thửa 5.*Kết quả có trong lịch sử\./,
      })
      await expect.poll(() => told.count()).toBe(1)
      // One counted valuation and the parcel's planning, once each.
      expect(await usageCount()).toBe(before + 2)
      // The photo went with it: the stored result shows it.
      expect(await page.locator('[data-testid=photo-tile][data-status=uploaded]').count()).toBe(1)
    } finally {
      await b.close()
    }
  })
  // Last in the file: it stops the server and starts it again.
  it('keeps 2 photos attached offline through a restart and sends each exactly once when back online', async () => {
    const photoDir = tempDir('qh-off-photos-')
    const photos = await Promise.all(
      ['#0f766e', '#b45309'].map(async (color, i) => {
        const file = join(photoDir, `mat-tien-${i + 1}.jpg`)
        await sharp({ create: { width: 1200, height: 900, channels: 3, background: color } })
          .jpeg()
          .toFile(file)
        return file
      }),
    )
    const profile = tempDir('qh-off-outbox-')
    const before = uploadsOnDisk()

    const first = await openApp(profile, '/valuation')
    try {
      const { page, context } = first
      // No signal at all: the server is gone (for the worker's Background Sync too) and the page knows it is offline.
      await app.stop()
      await context.setOffline(true)
      await page.getByTestId('photo-input').setInputFiles(photos)
      const waiting = page.locator('[data-testid=photo-tile][data-status=ready]')
      await expect.poll(() => waiting.count(), { timeout: 30_000 }).toBe(2)
      expect(await waiting.first().innerText()).toContain('Đang chờ gửi')
      // Queued with their images before the browser goes away.
      await expect.poll(() => idbCount(page, 'qh-outbox', 'items')).toBe(2)
    } finally {
      await first.close()
    }
    expect(uploadsOnDisk()).toBe(before)

    const again = await openApp(profile, '/valuation', { offline: true })
    try {
      const { page, context } = again
      const tiles = page.locator('[data-testid=photo-tile]')
      // Back on the form after the restart, still waiting: nothing can have been sent offline.
      await expect.poll(() => tiles.count(), { timeout: 20_000 }).toBe(2)
      expect(await page.locator('[data-testid=photo-tile][data-status=uploaded]').count()).toBe(0)
      expect(uploadsOnDisk()).toBe(before)
      await page.getByRole('link', { name: /Dữ liệu ngoại tuyến/ }).click()
      await page.getByRole('tab', { name: 'Ảnh chờ gửi' }).click()
      await expect.poll(() => page.getByTestId('queue-item').count()).toBe(2)
      expect(await page.getByTestId('queue-item').first().textContent()).toContain('Đang chờ gửi')
      await page.goBack()

      // The same server again on the same port and data (the origin, and so the worker and the device's
      // storage, must stay the same): how the signal comes back after a real outage.
      app = { ...app, ...(await serveOn(app.port, app.dataDir)) }
      // The answer to the first upload is lost on the way back: the server has it, the app does not know.
      let cut = 0
      await context.route('**/api/uploads', async (route) => {
        if (cut > 0) return route.continue()
        cut += 1
        await route.fetch()
        await route.abort('connectionreset')
      })
      await context.setOffline(false)
      await expect
        .poll(() => page.locator('[data-testid=photo-tile][data-status=uploaded]').count(), { timeout: 60_000 })
        .toBe(2)
      expect(cut).toBe(1)
      expect(await tiles.count()).toBe(2)
      expect(uploadsOnDisk()).toBe(before + 2)

      // Triggers that come later (visible again, online again) send nothing more.
      await page.evaluate(() => {
        document.dispatchEvent(new Event('visibilitychange'))
        window.dispatchEvent(new Event('online'))
      })
      await page.getByRole('link', { name: /Dữ liệu ngoại tuyến/ }).click()
      await page.getByRole('tab', { name: 'Ảnh chờ gửi' }).click()
      await expect
        .poll(() => page.locator('[data-testid=queue-item][data-status=sent]').count(), { timeout: 15_000 })
        .toBe(2)
      expect(uploadsOnDisk()).toBe(before + 2)
    } finally {
      await again.close()
    }
  })
})
