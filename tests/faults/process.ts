import { spawn, type ChildProcess } from 'node:child_process'
import { mkdtempSync, rmSync } from 'node:fs'
import { createServer } from 'node:net'
import { tmpdir } from 'node:os'
import { join, resolve } from 'node:path'
import { fillDataDir } from '../support/prepared-data.ts'

export const root = resolve(import.meta.dirname, '../..')

/** A port that was free a moment ago; startServer retries with another when the server finds it taken. */
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

const temps: string[] = []

/** A fresh temporary directory, removed by removeTempDirs(). */
export function tempDir(prefix: string): string {
  const dir = mkdtempSync(join(tmpdir(), prefix))
  temps.push(dir)
  return dir
}

export function removeTempDirs(): void {
  for (const dir of temps.splice(0)) rmSync(dir, { recursive: true, force: true })
}

export type Proc = {
  child: ChildProcess
  output: () => string
  /** Resolves with the exit code (null when killed by a signal). */
  exited: Promise<number | null>
}

/** Runs `node <script>` from the project root with the given environment, collecting its output. */
export function runNode(script: string, args: string[], env: Record<string, string>): Proc {
  let log = ''
  const child = spawn(process.execPath, [script, ...args], {
    cwd: root,
    env: { ...process.env, ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  })
  child.stdout?.on('data', (d: Buffer) => (log += d.toString()))
  child.stderr?.on('data', (d: Buffer) => (log += d.toString()))
  const exited = new Promise<number | null>((r) => child.once('exit', (code) => r(code)))
  return { child, output: () => log, exited }
}

export type ServerProc = Proc & { url: string; port: number; dataDir: string; stop(): Promise<void> }

/**
 * `node server/src/main.ts` on a free loopback port; resolves once /api/health answers 200. No
 * front-end build is needed: the API, tiles and the daily limit do not depend on it. An empty data
 * directory starts as a copy of the run's prepared one (tests/support/prepared-data.ts).
 */
export async function startServer(opts: {
  dataDir: string
  env?: Record<string, string>
  port?: number
}): Promise<ServerProc> {
  // A port freePort found may be taken before the server binds it: then another one (not a port asked for).
  for (let attempt = 1; ; attempt++) {
    try {
      return await startServerOn(opts.port ?? (await freePort()), opts)
    } catch (err) {
      if (!(err instanceof PortTaken) || opts.port !== undefined || attempt === 5) throw err
    }
  }
}

class PortTaken extends Error {}

async function startServerOn(
  port: number,
  opts: { dataDir: string; env?: Record<string, string> },
): Promise<ServerProc> {
  const env = {
    PORT: String(port),
    HOST: '127.0.0.1',
    DATA_DIR: opts.dataDir,
    DATABASE_URL: '',
    LOG_LEVEL: 'warn',
    ...opts.env,
  }
  await fillDataDir(opts.dataDir, { ...process.env, ...env })
  const proc = runNode('server/src/main.ts', [], env)
  const url = `http://127.0.0.1:${port}`
  const deadline = Date.now() + 200_000
  for (;;) {
    if (proc.child.exitCode !== null || proc.child.signalCode !== null) {
      if (/EADDRINUSE/.test(proc.output())) throw new PortTaken(proc.output())
      throw new Error(`server exited (${proc.child.exitCode ?? proc.child.signalCode}):\n${proc.output()}`)
    }
    try {
      if ((await fetch(`${url}/api/health`)).ok) break
    } catch {}
    if (Date.now() > deadline) {
      proc.child.kill('SIGKILL')
      throw new Error(`server did not become healthy in time:\n${proc.output()}`)
    }
    await new Promise((r) => setTimeout(r, 200))
  }
  return {
    ...proc,
    url,
    port,
    dataDir: opts.dataDir,
    async stop() {
      if (proc.child.exitCode !== null || proc.child.signalCode !== null) return
      proc.child.kill('SIGTERM')
      const timer = setTimeout(() => proc.child.kill('SIGKILL'), 15_000)
      await proc.exited
      clearTimeout(timer)
    },
  }
}

export type Json = { status: number; body: any; headers: Headers }

/** One HTTP call that never throws: a refused or reset connection comes back as status 0. */
export async function call(
  url: string,
  init: RequestInit & { json?: unknown; token?: string; ip?: string } = {},
): Promise<Json> {
  const headers = new Headers(init.headers)
  if (init.json !== undefined) headers.set('content-type', 'application/json')
  if (init.token) headers.set('authorization', `Bearer ${init.token}`)
  if (init.ip) headers.set('x-forwarded-for', init.ip)
  try {
    const res = await fetch(url, {
      ...init,
      headers,
      body: init.json !== undefined ? JSON.stringify(init.json) : init.body,
      signal: init.signal ?? AbortSignal.timeout(60_000),
    })
    const text = await res.text()
    let body: unknown = text
    try {
      body = JSON.parse(text)
    } catch {}
    return { status: res.status, body, headers: res.headers }
  } catch {
    return { status: 0, body: null, headers: new Headers() }
  }
}
