import { spawn } from 'node:child_process'
import { constants, cpSync, existsSync, mkdirSync, mkdtempSync, readdirSync, renameSync, rmSync } from 'node:fs'
import { createServer } from 'node:net'
import { tmpdir } from 'node:os'
import { join, resolve } from 'node:path'

/**
 * Data directories as the server's first start leaves them, made once per test run and copied into each test's
 * own folder. A first start on an empty folder creates the embedded database, migrates it and loads whatever a
 * first start loads (the demo data, and anything added to the start later); on a loaded 2-core machine that took
 * 70–90 s, paid again by every end-to-end and fault file. Preparing runs the real server on an empty folder and
 * stops it, so the copy holds exactly what a first start would have made, whatever that comes to be.
 *
 * There is one for each way a test starts the server, made when first asked for: `demo` (the default start) and
 * `migrated` (a start with DEMO_DATA=false: the schema and nothing loaded).
 */
export const PREPARED_DATA_ENV = 'QH_TEST_PREPARED_DATA'

export type PreparedKind = 'demo' | 'migrated'

const root = resolve(import.meta.dirname, '../..')

function freePort(): Promise<number> {
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

/**
 * Starts the real server on `dataDir` until it answers /api/health and has done what start-up leaves to the
 * background (it logs `start-up work done`: the tile store filled for the data loaded), then stops it the way a
 * deployment does.
 */
async function firstStart(dataDir: string, env: Record<string, string>): Promise<void> {
  const port = await freePort()
  let log = ''
  const child = spawn(process.execPath, ['server/src/main.ts'], {
    cwd: root,
    env: { ...process.env, PORT: String(port), HOST: '127.0.0.1', DATA_DIR: dataDir, LOG_LEVEL: 'info', ...env },
    stdio: ['ignore', 'ignore', 'pipe'],
  })
  child.stderr.on('data', (d: Buffer) => (log += d.toString()))
  const exited = new Promise<number | null>((r) => child.once('exit', (code) => r(code)))
  const deadline = Date.now() + 600_000
  for (;;) {
    if (child.exitCode !== null)
      throw new Error(`preparing ${dataDir}: the server exited with ${child.exitCode}\n${log}`)
    const healthy = await fetch(`http://127.0.0.1:${port}/api/health`).then(
      (r) => r.ok,
      () => false,
    )
    if (healthy && log.includes('"msg":"start-up work done"')) break
    if (Date.now() > deadline) {
      child.kill('SIGKILL')
      throw new Error(`preparing ${dataDir}: the server did not become healthy\n${log}`)
    }
    await new Promise((r) => setTimeout(r, 250))
  }
  child.kill('SIGTERM')
  const code = await exited
  if (code !== 0) throw new Error(`preparing ${dataDir}: the server stopped with ${code}\n${log}`)
}

/** Copies a data directory, leaving out the owner lock a running process keeps beside its database. */
function copyDataDir(from: string, to: string): void {
  mkdirSync(to, { recursive: true })
  cpSync(from, to, {
    recursive: true,
    // A reflink where the file system has them (the copy then costs nothing until written), a plain copy elsewhere.
    mode: constants.COPYFILE_FICLONE,
    filter: (src) => !src.endsWith('.lock'),
  })
}

const FIRST_START_ENV: Record<PreparedKind, Record<string, string>> = {
  demo: { DATABASE_URL: '' },
  migrated: { DATABASE_URL: '', DEMO_DATA: 'false' },
}

/**
 * Makes `dir/name` with `make`, unless it is there already. It is made beside and renamed into place, so a
 * preparation cut short never leaves a half-made folder behind to be used.
 */
async function makeOnce(dir: string, name: string, make: (into: string) => Promise<void> | void): Promise<string> {
  const target = join(dir, name)
  if (existsSync(target)) return target
  const making = mkdtempSync(join(dir, `${name}-making-`))
  try {
    await make(making)
    try {
      renameSync(making, target)
    } catch (err) {
      // Another process made it meanwhile, the same way.
      if (!existsSync(target)) throw err
    }
  } finally {
    rmSync(making, { recursive: true, force: true })
  }
  return target
}

/** Makes `dir/kind` by a first start, unless it is there already. */
export function prepareDataDir(dir: string, kind: PreparedKind): Promise<string> {
  return makeOnce(dir, kind, (into) => firstStart(into, FIRST_START_ENV[kind]))
}

let madeHere: string | undefined

/**
 * The run's folder of prepared things: the one named by QH_TEST_PREPARED_DATA (tests/run-all.ts and the global setup of the
 * end-to-end, fault and load projects set it), else a folder of this process's own, removed when it exits.
 */
function preparedRoot(): string {
  const named = process.env[PREPARED_DATA_ENV]
  if (named && existsSync(named)) return named
  if (!madeHere) {
    const dir = mkdtempSync(join(tmpdir(), 'qh-prepared-'))
    process.once('exit', () => rmSync(dir, { recursive: true, force: true }))
    madeHere = dir
  }
  return madeHere
}

/**
 * Fills `dataDir` with the prepared data a first start with `env` would have made, when the folder is empty or
 * missing and the database is the embedded one; a folder already holding data (a restart) is left as it is.
 */
export async function fillDataDir(dataDir: string, env: Record<string, string | undefined> = {}): Promise<void> {
  if (env.DATABASE_URL) return
  if (existsSync(dataDir) && readdirSync(dataDir).length > 0) return
  const kind: PreparedKind = ['false', '0', 'no'].includes(env.DEMO_DATA ?? '') ? 'migrated' : 'demo'
  copyDataDir(await prepareDataDir(preparedRoot(), kind), dataDir)
}

/**
 * A folder `make` fills once per test run and every later caller shares (read only), such as a second build of the
 * front end: made in the run's folder of prepared things.
 */
export function preparedOnce(name: string, make: (into: string) => Promise<void> | void): Promise<string> {
  return makeOnce(preparedRoot(), name, make)
}
