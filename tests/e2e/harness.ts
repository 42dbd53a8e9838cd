import { spawn, spawnSync, type ChildProcess } from 'node:child_process'
import { existsSync, mkdtempSync, rmSync } from 'node:fs'
import { createServer } from 'node:net'
import { tmpdir } from 'node:os'
import { join, resolve } from 'node:path'
import { chromium, type BrowserContext, type Page } from 'playwright-core'
import sharp from 'sharp'
import { expect } from 'vitest'
import { fillDataDir, preparedOnce } from '../support/prepared-data.ts'

const root = resolve(import.meta.dirname, '../..')

export const chromiumArgs = [
  '--headless',
  '--no-sandbox',
  '--disable-gpu',
  '--disable-quic',
  '--no-first-run',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
]

/**
 * A port that was free a moment ago. Another process may take it before the server binds it, so whoever
 * starts a server on it retries on EADDRINUSE with a new one (startApp, tests/faults/process.ts).
 */
export function freePort(): Promise<number> {
  return new Promise((resolvePort, reject) => {
    const srv = createServer()
    srv.unref()
    srv.on('error', reject)
    srv.listen(0, '127.0.0.1', () => {
      const addr = srv.address()
      const port = typeof addr === 'object' && addr ? addr.port : 0
      srv.close(() => resolvePort(port))
    })
  })
}

export type RunningApp = { url: string; port: number; dataDir: string; output: () => string; stop(): Promise<void> }

/**
 * Runs the built server (`node server/src/main.ts`) as a real process on a free port with a temporary
 * DATA_DIR, and waits until /api/health answers. The build in dist/ must exist (the test runner builds first).
 * An empty DATA_DIR starts as a copy of the run's prepared one (tests/support/prepared-data.ts), as a first
 * start would have left it.
 */
export async function startApp(opts: { env?: Record<string, string>; dataDir?: string } = {}): Promise<RunningApp> {
  if (!existsSync(join(root, 'dist/index.html'))) throw new Error('dist/ is missing: run `npm run build` first')
  const dataDir = opts.dataDir ?? mkdtempSync(join(tmpdir(), 'qh-e2e-'))
  for (let attempt = 1; ; attempt++) {
    try {
      return await startAppOn(await freePort(), dataDir, opts)
    } catch (err) {
      // The port freePort found was taken before the server bound it: another one.
      if (!(err instanceof PortTaken) || attempt === 5) {
        if (!opts.dataDir) rmSync(dataDir, { recursive: true, force: true })
        throw err
      }
    }
  }
}

class PortTaken extends Error {}

async function startAppOn(
  port: number,
  dataDir: string,
  opts: { env?: Record<string, string>; dataDir?: string },
): Promise<RunningApp> {
  const env = {
    ...process.env,
    PORT: String(port),
    HOST: '127.0.0.1',
    DATA_DIR: dataDir,
    LOG_LEVEL: 'info',
    DATABASE_URL: '',
    ...opts.env,
  }
  await fillDataDir(dataDir, env)
  let log = ''
  const child: ChildProcess = spawn(process.execPath, ['server/src/main.ts'], {
    cwd: root,
    env,
    stdio: ['ignore', 'pipe', 'pipe'],
  })
  child.stdout?.on('data', (d: Buffer) => (log += d.toString()))
  child.stderr?.on('data', (d: Buffer) => (log += d.toString()))
  const url = `http://127.0.0.1:${port}`
  const deadline = Date.now() + 180_000
  for (;;) {
    if (child.exitCode !== null) {
      if (/EADDRINUSE/.test(log)) throw new PortTaken(log)
      throw new Error(`server exited with ${child.exitCode}:\n${log}`)
    }
    try {
      const res = await fetch(`${url}/api/health`)
      if (res.ok) break
    } catch {}
    if (Date.now() > deadline) {
      child.kill('SIGKILL')
      throw new Error(`server did not become healthy in time:\n${log}`)
    }
    await new Promise((r) => setTimeout(r, 250))
  }
  return {
    url,
    port,
    dataDir,
    output: () => log,
    async stop() {
      if (child.exitCode === null) {
        const exited = new Promise((r) => child.once('exit', r))
        child.kill('SIGTERM')
        await Promise.race([exited, new Promise((r) => setTimeout(r, 10_000))])
        if (child.exitCode === null) child.kill('SIGKILL')
      }
      if (!opts.dataDir) rmSync(dataDir, { recursive: true, force: true })
    },
  }
}

/**
 * A second, genuinely different build of the same sources (its own build id, so its own asset list
 * and worker), written to a temporary folder beside the one under test. The caller removes the folder.
 */
function buildAgain(outDir: string, label = `e2e-${Date.now()}`): void {
  const res = spawnSync(
    process.execPath,
    [join(root, 'node_modules/vite/bin/vite.js'), 'build', '--outDir', outDir, '--emptyOutDir', '--logLevel', 'error'],
    {
      cwd: root,
      env: { ...process.env, QH_BUILD_LABEL: label },
      encoding: 'utf8',
    },
  )
  if (res.status !== 0) throw new Error(`second build failed: ${res.stderr}\n${res.stdout}`)
}

/**
 * The second build the files that deploy a new build over the first serve (`buildAgain`): made once per test
 * run and shared, read only, by every file that asks for it; the run removes it.
 */
export function secondBuild(): Promise<string> {
  return preparedOnce('second-build', (dir) => buildAgain(dir))
}

/**
 * Runs the server on a given port and data dir, optionally serving another build: the origin, and so
 * the service worker and the device's storage, stay the same, as they do across a real deployment.
 */
export async function serveOn(port: number, dataDir: string, distDir?: string): Promise<{ stop(): Promise<void> }> {
  const child: ChildProcess = spawn(process.execPath, ['server/src/main.ts'], {
    cwd: root,
    env: {
      ...process.env,
      PORT: String(port),
      HOST: '127.0.0.1',
      DATA_DIR: dataDir,
      DATABASE_URL: '',
      LOG_LEVEL: 'warn',
      ...(distDir ? { DIST_DIR: distDir } : {}),
    },
    stdio: ['ignore', 'ignore', 'pipe'],
  })
  let log = ''
  child.stderr?.on('data', (d: Buffer) => (log += d.toString()))
  const deadline = Date.now() + 180_000
  for (;;) {
    if (child.exitCode !== null) throw new Error(`server exited with ${child.exitCode}: ${log}`)
    if (
      await fetch(`http://127.0.0.1:${port}/api/health`).then(
        (r) => r.ok,
        () => false,
      )
    )
      break
    if (Date.now() > deadline) throw new Error(`server did not start: ${log}`)
    await new Promise((r) => setTimeout(r, 250))
  }
  return {
    async stop() {
      if (child.exitCode !== null) return
      const exited = new Promise((r) => child.once('exit', r))
      child.kill('SIGTERM')
      await exited
    },
  }
}

export type Browser = {
  context: BrowserContext
  page: Page
  consoleErrors: string[]
  userDataDir: string
  close(): Promise<void>
}

/** Debian's Chromium with a fresh (or given) profile, collecting console and page errors. */
export async function launch(
  opts: {
    viewport?: { width: number; height: number }
    mobile?: boolean
    colorScheme?: 'light' | 'dark'
    userDataDir?: string
    permissions?: string[]
    geolocation?: { latitude: number; longitude: number; accuracy?: number }
    serviceWorkers?: 'allow' | 'block'
  } = {},
): Promise<Browser> {
  const userDataDir = opts.userDataDir ?? mkdtempSync(join(tmpdir(), 'qh-chromium-'))
  const context = await chromium.launchPersistentContext(userDataDir, {
    executablePath: process.env.CHROMIUM ?? '/usr/bin/chromium',
    headless: true,
    args: chromiumArgs,
    viewport: opts.viewport ?? { width: 1280, height: 800 },
    isMobile: opts.mobile ?? false,
    hasTouch: opts.mobile ?? false,
    locale: 'vi-VN',
    timezoneId: 'Asia/Ho_Chi_Minh',
    colorScheme: opts.colorScheme ?? 'light',
    permissions: opts.permissions,
    geolocation: opts.geolocation,
    // 'block' for a test that stubs the server with page.route: a worker that has claimed the page can send requests past the stub.
    serviceWorkers: opts.serviceWorkers ?? 'allow',
  })
  const page = context.pages()[0] ?? (await context.newPage())
  const consoleErrors: string[] = []
  const watch = (p: Page) => {
    p.on('console', (m) => {
      if (m.type() === 'error') consoleErrors.push(m.text())
    })
    p.on('pageerror', (e) => consoleErrors.push(e.message))
  }
  watch(page)
  context.on('page', watch)
  return {
    context,
    page,
    consoleErrors,
    userDataDir,
    async close() {
      await context.close()
      if (!opts.userDataDir) rmSync(userDataDir, { recursive: true, force: true })
    },
  }
}

export const phone = { viewport: { width: 390, height: 844 }, mobile: true }
export const desktop = { viewport: { width: 1280, height: 800 } }

/** Resolves once the map has drawn its first view (the map view sets data-ready). */
export async function mapReady(page: Page): Promise<void> {
  await expect.poll(() => page.getByTestId('map').getAttribute('data-ready'), { timeout: 30_000 }).toBe('true')
}

/** Painted pixels across the map's canvases (sampled): more than a blank map has. */
export function paintedPixels(page: Page): Promise<number> {
  return page.evaluate(() => {
    let painted = 0
    for (const c of document.querySelectorAll<HTMLCanvasElement>('[data-testid=map] canvas')) {
      const ctx = c.getContext('2d')
      if (!ctx || c.width === 0 || c.height === 0) continue
      const d = ctx.getImageData(0, 0, c.width, c.height).data
      for (let i = 0; i < d.length; i += 4 * 53) if (d[i + 3]! > 0) painted += 1
    }
    return painted
  })
}

/** Pixels of the map's screenshot within `tol` of a colour on every channel. */
export async function pixelsNear(page: Page, c: { r: number; g: number; b: number }, tol: number): Promise<number> {
  const { data, info } = await sharp(await page.getByTestId('map').screenshot())
    .removeAlpha()
    .raw()
    .toBuffer({ resolveWithObject: true })
  let n = 0
  for (let i = 0; i < info.width * info.height * 3; i += 3) {
    if (Math.abs(data[i]! - c.r) <= tol && Math.abs(data[i + 1]! - c.g) <= tol && Math.abs(data[i + 2]! - c.b) <= tol)
      n++
  }
  return n
}
