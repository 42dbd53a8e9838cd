import { mkdtempSync, readdirSync, rmSync, statSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import sharp from 'sharp'
import type { Page, Route } from 'playwright-core'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { desktop, launch, mapReady, paintedPixels, secondBuild, serveOn, startApp, type RunningApp } from './harness.ts'

/**
 * A deployment that lands while the app is busy: a saved-area download and a photo upload are both
 * genuinely in flight (held on the wire by the test) when the server starts serving a new build on the
 * same origin. The app switches to the new build; afterwards the page and its worker are both the new
 * build, the area has every tile it lists, and the photo is on the server exactly once.
 */

const PASSWORD = 'mat-khau-cap-nhat-1'
const AREA = { lat: 10.7955, lng: 106.7 }
/** Download requests let through before the rest are held, so some tiles are saved before the deployment. */
const TILES_BEFORE_HOLD = 24
/** Tile packs let through before the rest are held. */
const PACKS_BEFORE_HOLD = 1

const dirs: string[] = []
const tempDir = (prefix: string) => {
  const d = mkdtempSync(join(tmpdir(), prefix))
  dirs.push(d)
  return d
}

/** Stored uploads on the server's disk (one image and one thumbnail per upload). */
function uploadsOnDisk(dataDir: string): number {
  const walk = (d: string): string[] => {
    try {
      return readdirSync(d).flatMap((n) => (statSync(join(d, n)).isDirectory() ? walk(join(d, n)) : [n]))
    } catch {
      return []
    }
  }
  return walk(join(dataDir, 'uploads')).filter((n) => !n.startsWith('.tmp-') && !n.includes('-thumb.')).length
}

/** Every value of an idb-keyval store ([] while it does not exist yet). */
function idbAll<T>(page: Page, db: string, store: string): Promise<T[]> {
  return page.evaluate(
    ([db, store]) =>
      new Promise<T[]>((done, fail) => {
        const open = indexedDB.open(db)
        open.onupgradeneeded = () => open.result.createObjectStore(store)
        open.onerror = () => fail(open.error)
        open.onsuccess = () => {
          const req = open.result.transaction(store).objectStore(store).getAll()
          req.onsuccess = () => done(req.result as T[])
        }
      }),
    [db, store] as const,
  )
}

type AreaRow = { status: string; total: number; done: number; failed: number; cursor: number }
type OutboxRow = { status: string; uploadId: string | null }

const savedTileUrls = (page: Page) =>
  page.evaluate(async () =>
    (await caches.has('tiles-saved-v1')) ? (await (await caches.open('tiles-saved-v1')).keys()).map((r) => r.url) : [],
  )

/** What the page runs and what its worker holds: the build id, the page's entry script, the precache. */
function buildState(page: Page) {
  return page.evaluate(async () => {
    const reg = await navigator.serviceWorker.getRegistration('/')
    const precache = (await caches.keys()).find((n) => n.startsWith('workbox-precache'))
    const cached = precache
      ? (await (await caches.open(precache)).keys()).map((r) => r.url.replace(/\?__WB_REVISION__=.*$/, ''))
      : []
    return {
      buildId: document.querySelector('meta[name="build-id"]')?.getAttribute('content') ?? null,
      // The entry is preloaded and imported by an inline module after the first paint (see vite.config.ts).
      entry:
        [...document.querySelectorAll<HTMLLinkElement>('link[rel="modulepreload"]')]
          .map((l) => l.href)
          .find((h) => /\/assets\/index-[\w-]+\.js$/.test(h)) ?? null,
      controlled: navigator.serviceWorker.controller !== null,
      controllerIsActive:
        !!reg?.active &&
        navigator.serviceWorker.controller?.scriptURL === reg.active.scriptURL &&
        reg.active.state === 'activated',
      waiting: reg?.waiting !== null && reg?.waiting !== undefined,
      installing: reg?.installing !== null && reg?.installing !== undefined,
      cached,
    }
  })
}

/** Requests the test holds on the wire until it lets them go. */
function gate() {
  let open = false
  const held: (() => void)[] = []
  return {
    get held() {
      return held.length
    },
    wait: () => (open ? Promise.resolve() : new Promise<void>((r) => held.push(r))),
    release() {
      open = true
      for (const r of held.splice(0)) r()
    },
  }
}

let app: RunningApp
let secondDist: string
let session: { userName: string; token: string; expiresAt: string; isLogin: boolean; isOpenLogin: boolean }

beforeAll(async () => {
  secondDist = await secondBuild()
  // Our own data dir: the server of the new build takes over the same data, as a deployment does.
  app = await startApp({ dataDir: tempDir('qh-update-data-') })
  const email = `cap-nhat-${Date.now().toString(36)}@example.com`
  const post = (path: string, json: unknown) =>
    fetch(`${app.url}${path}`, {
      method: 'POST',
      headers: { 'Content-Type': 'application/json' },
      body: JSON.stringify(json),
    })
  expect((await post('/api/auth/register', { name: 'Người Khảo Sát', email, password: PASSWORD })).status).toBe(201)
  const login = (
    (await (await post('/api/auth/login', { email, password: PASSWORD })).json()) as {
      data: { access_token: string; expires_at: string; name: string }
    }
  ).data
  session = {
    userName: login.name,
    token: login.access_token,
    expiresAt: login.expires_at,
    isLogin: true,
    isOpenLogin: false,
  }
})

afterAll(async () => {
  await app?.stop()
  for (const d of dirs) rmSync(d, { recursive: true, force: true })
})

describe('a new build while a download and an upload are in flight', () => {
  it('switches page and worker to the new build together, finishes the saved area with every tile and sends the photo exactly once', async () => {
    const photo = join(tempDir('qh-update-photo-'), 'mat-tien.jpg')
    await sharp({ create: { width: 1600, height: 1200, channels: 3, background: '#0f766e' } })
      .jpeg()
      .toFile(photo)

    const b = await launch({ ...desktop, userDataDir: tempDir('qh-update-profile-') })
    let next: { stop(): Promise<void> } | null = null
    const uploads = gate()
    const tiles = gate()
    try {
      const { page, context } = b
      await context.addInitScript((s) => localStorage.setItem('qh.session', JSON.stringify(s)), session)
      await page.goto(`${app.url}/demo#/${AREA.lat}/${AREA.lng}/17`)
      await page.waitForFunction(() => navigator.serviceWorker.controller !== null, undefined, { timeout: 30_000 })
      await mapReady(page)
      await expect.poll(() => paintedPixels(page), { timeout: 30_000 }).toBeGreaterThan(1000)

      // The user values the parcel in the middle of the map (in the app: the page stays the same document).
      const box = (await page.getByTestId('map').boundingBox())!
      // Beside the centre (a street runs through it); tapped again until a parcel answers.
      const taps = [60, 120, -60, -120]
      let tap = 0
      await expect
        .poll(
          async () => {
            if ((await page.getByTestId('result-title').count()) === 0)
              await page.mouse.click(box.x + box.width / 2 + taps[tap++ % taps.length]!, box.y + box.height / 2)
            return page.getByTestId('result-title').count()
          },
          { timeout: 40_000, interval: 2500 },
        )
        .toBe(1)
      await page.getByRole('link', { name: 'Định giá thửa này' }).click()
      await expect
        .poll(() => page.getByRole('heading', { level: 1 }).textContent(), { timeout: 15_000 })
        .toBe('Định giá đất')

      // A photo taken in a dead zone waits in the outbox.
      await context.setOffline(true)
      await page.getByTestId('photo-input').setInputFiles(photo)
      await expect
        .poll(() => page.locator('[data-testid=photo-tile][data-status=ready]').count(), { timeout: 30_000 })
        .toBe(1)
      await expect.poll(async () => (await idbAll<OutboxRow>(page, 'qh-outbox', 'items')).length).toBe(1)

      // Back online the outbox sends it: the server stores it, but its answer is held on the way back.
      const before = uploadsOnDisk(app.dataDir)
      let uploadRequests = 0
      await context.route('**/api/uploads', async (route: Route) => {
        uploadRequests += 1
        const res = await route.fetch()
        await uploads.wait()
        await route.fulfill({ response: res }).catch(() => undefined)
      })
      await context.setOffline(false)
      await expect.poll(() => uploadsOnDisk(app.dataDir), { timeout: 90_000 }).toBe(before + 1)
      await expect.poll(() => uploads.held, { timeout: 30_000 }).toBe(1)

      // Back to the map, where the user saves the area in view.
      await page.goBack()
      await mapReady(page)
      // Out to zoom 16 (the lookup brought the map close to the parcel), so the area spans a few hundred tiles.
      const zoom = () => page.evaluate(() => Number(location.hash.split('/')[3]))
      while ((await zoom()) > 16.5) {
        const was = await zoom()
        await page.getByRole('button', { name: 'Thu nhỏ' }).click()
        await expect.poll(zoom, { timeout: 10_000 }).toBeLessThan(was)
      }
      await page.getByTestId('save-area-button').click()
      await page.getByTestId('save-area-panel').waitFor()
      await page.getByTestId('save-area-from').selectOption('16')
      await page.getByTestId('save-area-to').selectOption('18')
      await expect
        .poll(() => page.getByTestId('save-area-estimate').textContent(), { timeout: 30_000 })
        .toMatch(/^khoảng /)
      await page.getByTestId('save-area-name').fill('Khu đang tải')
      // Only the download's requests are held: the page sends them past the worker. The map's own go
      // through the worker, and holding those would only keep the old worker busy, which a real network does not.
      let tileRequests = 0
      await context.route(/\/tiles\/(basemap|planning|parcels)\/\d+\/\d+\/\d+\.pbf$/, async (route: Route) => {
        if (route.request().serviceWorker() === null && ++tileRequests > TILES_BEFORE_HOLD) await tiles.wait()
        await route.continue().catch(() => undefined)
      })
      // The server's own layers come in packs of many tiles: the first pack goes through, the next are held.
      let packRequests = 0
      await context.route(/\/tiles\/pack\?/, async (route: Route) => {
        if (route.request().serviceWorker() === null && ++packRequests > PACKS_BEFORE_HOLD) {
          await tiles.wait()
          await route.continue().catch(() => undefined)
          return
        }
        // A pack streams for a while: read it whole here, so the deployment's restart cannot cut it off.
        const res = await route.fetch()
        await route.fulfill({ response: res }).catch(() => undefined)
      })
      await page.getByTestId('save-area-start').click()
      // Some tiles are saved, the next ones are on the wire.
      await expect.poll(() => tiles.held, { timeout: 60_000 }).toBeGreaterThan(0)
      await expect.poll(async () => (await savedTileUrls(page)).length, { timeout: 30_000 }).toBeGreaterThan(0)
      const [area] = await idbAll<AreaRow>(page, 'qh-offline-areas', 'areas')
      expect(area!.total).toBeGreaterThan(TILES_BEFORE_HOLD * 2)
      expect(area!.status).toBe('downloading')
      const savedBefore = await savedTileUrls(page)
      const old = await buildState(page)
      expect(await page.locator('[data-testid=photo-tile]').count()).toBe(0)

      // Deploy: the same origin now serves the next build, on the same data.
      await app.stop()
      next = await serveOn(app.port, app.dataDir, secondDist)
      const newId = ((await (await fetch(`${app.url}/builds/latest.json`)).json()) as { id: string }).id
      expect(newId).not.toBe(old.buildId)
      await page.evaluate(() => window.dispatchEvent(new Event('online')))

      // The app fetches the new worker and asks it to take over; the browser lets it only once the old
      // worker has no request in flight, so the page still runs the old build while the upload is open.
      const newWorkerWaiting = () =>
        page.evaluate(async () => !!(await navigator.serviceWorker.getRegistration('/'))?.waiting)
      await expect.poll(newWorkerWaiting, { timeout: 90_000 }).toBe(true)
      expect((await buildState(page)).buildId).toBe(old.buildId)
      expect(uploads.held).toBe(1)
      expect((await idbAll<AreaRow>(page, 'qh-offline-areas', 'areas'))[0]?.status).toBe('downloading')
      // The network goes on: the upload's answer arrives, the download carries on.
      uploads.release()
      tiles.release()

      // The page ends on the new build, controlled by the new worker and no other.
      await expect
        .poll(async () => (await buildState(page).catch(() => null))?.buildId, { timeout: 90_000 })
        .toBe(newId)
      await expect
        .poll(async () => (await buildState(page).catch(() => null))?.controllerIsActive, { timeout: 30_000 })
        .toBe(true)
      // On /demo the new page draws its boot map first and preloads the app's entry once the first tiles are drawn.
      await expect
        .poll(async () => (await buildState(page).catch(() => null))?.entry ?? null, { timeout: 60_000 })
        .not.toBeNull()
      const now = await buildState(page)
      expect(now).toMatchObject({ controlled: true, waiting: false, installing: false })
      expect(old.entry).not.toBeNull()
      expect(now.entry).not.toBe(old.entry)
      expect(now.cached).toContain(now.entry)
      expect(now.cached).not.toContain(old.entry)

      // The download carries on in the new build and ends with every tile it lists; those saved before stay.
      await expect
        .poll(async () => (await idbAll<AreaRow>(page, 'qh-offline-areas', 'areas'))[0]?.status, { timeout: 120_000 })
        .toBe('done')
      const [done] = await idbAll<AreaRow>(page, 'qh-offline-areas', 'areas')
      expect(done).toMatchObject({ total: area!.total, done: area!.total, failed: 0, cursor: area!.total })
      const savedAfter = await savedTileUrls(page)
      expect(savedAfter.length).toBe(area!.total)
      expect(savedAfter).toEqual(expect.arrayContaining(savedBefore))

      // The photo: on the server once, nothing left in the queue.
      await expect
        .poll(async () => (await idbAll<OutboxRow>(page, 'qh-outbox', 'items')).map((i) => i.status), {
          timeout: 60_000,
        })
        .toEqual(['sent'])
      expect(uploadsOnDisk(app.dataDir)).toBe(before + 1)
      expect(uploadRequests).toBeGreaterThanOrEqual(1)
      await page.goto(`${app.url}/valuation`)
      await expect
        .poll(() => page.locator('[data-testid=photo-tile][data-status=uploaded]').count(), { timeout: 20_000 })
        .toBe(1)
      expect(uploadsOnDisk(app.dataDir)).toBe(before + 1)

      // While the server restarts, the map's own view tiles asked for in that gap are refused by the
      // closed port (the browser logs each); that is the network, not the app. Anything else is an error.
      expect(
        b.consoleErrors.filter((e) => !/^Failed to load resource: net::ERR_CONNECTION_(REFUSED|RESET)$/.test(e)),
      ).toEqual([])
    } finally {
      uploads.release()
      tiles.release()
      await b.close()
      await next?.stop()
    }
  }, 300_000)
})
