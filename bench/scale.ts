import { spawn } from 'node:child_process'
import { readdirSync, rmSync, statSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import pg from 'pg'
import { benchApi, type ApiLine, type ApiOptions, type ApiRun } from './api.ts'
import { startBenchServer } from './lib/server-process.ts'
import { pool, ratio } from './lib/stats.ts'
import { planningLoad } from './store.ts'
import { fmt, type Table } from './lib/table.ts'

export type ScaleLine = {
  db: string
  parcels: number
  rows: number
  loadMs: number
  rowsPerS: number
  dbBytes: number | null
  diskBytes: number | null
  run: ApiRun
  /** The tile store's fill on the freshly loaded data: seconds, tiles, bytes, and planning p95 meanwhile. */
  store: {
    seconds: number
    tiles: number
    bytes: number
    /** tile_store with its TOAST and index on disk. */
    diskBytes: number
    planningP95: number | undefined
    endedDuringLoad: boolean
  } | null
}

function dirBytes(dir: string): number {
  let total = 0
  for (const name of readdirSync(dir)) {
    const full = join(dir, name)
    const st = statSync(full)
    total += st.isDirectory() ? dirBytes(full) : st.size
  }
  return total
}

function runLoader(
  parcels: number,
  env: Record<string, string>,
): Promise<{ ms: number; rows: Record<string, number>; dbBytes: number | null }> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [join(import.meta.dirname, 'scale-load.ts'), '--parcels', String(parcels)], {
      env: { ...process.env, LOG_LEVEL: 'warn', ...env },
      stdio: ['ignore', 'pipe', 'inherit'],
    })
    let out = ''
    child.stdout.on('data', (d: Buffer) => (out += d.toString()))
    child.on('exit', (code) => {
      const line = out.trim().split('\n').pop() ?? ''
      if (code === 0 && line.startsWith('{')) resolve(JSON.parse(line))
      else reject(new Error(`loading ${parcels} parcels failed (exit ${code})`))
    })
  })
}

const dbUrl = (url: string, name: string) => {
  const u = new URL(url)
  u.pathname = `/${name}`
  return u.toString()
}

/** Runs `fn` on one connection to the server of `url`, closed after. */
async function withAdmin<T>(url: string, fn: (admin: pg.Client) => Promise<T>): Promise<T> {
  const admin = new pg.Client({ connectionString: url })
  await admin.connect()
  try {
    return await fn(admin)
  } finally {
    await admin.end()
  }
}

/** A fresh database `name` on the server of DATABASE_URL (or none, with `create` false). */
async function freshPostgres(url: string, name: string, create = true): Promise<string> {
  await withAdmin(url, async (admin) => {
    await admin.query(`drop database if exists ${name} with (force)`)
    if (create) await admin.query(`create database ${name}`)
  })
  return dbUrl(url, name)
}

type Loaded = Omit<ScaleLine, 'run'> & { env: Record<string, string>; dir: string; dbName: string }

type LoaderResult = Awaited<ReturnType<typeof runLoader>>

/** What a kept run's load wrote on its database (its comment): the loader's own line, so a later run reports it. */
const KEPT_PREFIX = 'qh bench scale: '

/** The loader's line a kept database carries when a previous run loaded it with `parcels`, else null. */
async function keptLoad(url: string, name: string, parcels: number): Promise<LoaderResult | null> {
  const { rows } = await withAdmin(url, (admin) =>
    admin.query<{ comment: string | null }>(
      'select shobj_description(oid, $2) as comment from pg_database where datname = $1',
      [name, 'pg_database'],
    ),
  )
  const comment = rows[0]?.comment
  if (!comment?.startsWith(KEPT_PREFIX)) return null
  const kept = JSON.parse(comment.slice(KEPT_PREFIX.length)) as LoaderResult & { parcels: number }
  return kept.parcels === parcels ? kept : null
}

async function markKept(url: string, name: string, parcels: number, loaded: LoaderResult): Promise<void> {
  const text = KEPT_PREFIX + JSON.stringify({ parcels, ...loaded })
  await withAdmin(url, (admin) => admin.query(`comment on database ${name} is ${admin.escapeLiteral(text)}`))
}

/** One size loaded into its own fresh database, then the tile store's fill on it with /api/planning loaded meanwhile. */
async function loadSize(
  o: { name: string; api: ApiOptions; pgUrl: string | undefined; keep: boolean; log: (s: string) => void },
  db: 'pglite' | 'postgres',
  parcels: number,
): Promise<Loaded> {
  const dir = join(tmpdir(), 'qh-bench', `${o.name}-${db}-${parcels}`)
  const dbName = `${o.name}_${parcels}`
  const kept = o.keep && db === 'postgres' ? await keptLoad(o.pgUrl as string, dbName, parcels) : null
  if (kept) {
    o.log(`Scale: ${dbName} already holds ${parcels.toLocaleString('en-US')} parcels (kept): not loaded again.`)
    const env = { DATA_DIR: dir, DATABASE_URL: dbUrl(o.pgUrl as string, dbName) }
    return { ...lineOf(db, parcels, kept, null), store: null, env, dir, dbName }
  }
  rmSync(dir, { recursive: true, force: true })
  const env: Record<string, string> =
    db === 'pglite'
      ? { DATA_DIR: dir, DATABASE_URL: '' }
      : { DATA_DIR: dir, DATABASE_URL: await freshPostgres(o.pgUrl as string, dbName) }
  o.log(`Scale: loading ${parcels.toLocaleString('en-US')} parcels into ${db}…`)
  const loaded = await runLoader(parcels, env)
  const diskBytes = db === 'pglite' ? dirBytes(dir) : null
  // The server starts filling the tile store for the new data at once, as after an import; lookups are
  // measured while it fills.
  const server = await startBenchServer(serverEnv(env), { startupWork: false })
  try {
    const planning = await planningLoad(server, o.api)
    o.log('  planning while the tile store fills…')
    const during = pool(await planning())
    const loadEnd = Date.now() / 1000
    const status = await server.call<{ tiles: number; bytes: number } | null>({ cmd: 'startup-work' })
    const [fill] = await server.call<{ s: number; finished: number }[]>({
      cmd: 'query',
      sql: `select extract(epoch from finished_at - started_at)::float8 as s,
              extract(epoch from finished_at)::float8 as finished from tile_store_fill
            where finished_at is not null order by version desc limit 1`,
    })
    const [disk] = await server.call<{ bytes: number }[]>({
      cmd: 'query',
      sql: `select pg_total_relation_size('tile_store')::float8 as bytes`,
    })
    const store = status && {
      seconds: fill?.s ?? Number.NaN,
      tiles: status.tiles,
      bytes: status.bytes,
      diskBytes: disk?.bytes ?? Number.NaN,
      planningP95: during.latency.p95,
      // The accounts log in while the fill runs (it starts with the server): it may end before the load does.
      endedDuringLoad: fill !== undefined && fill.finished < loadEnd,
    }
    if (o.keep && db === 'postgres') await markKept(o.pgUrl as string, dbName, parcels, loaded)
    return { ...lineOf(db, parcels, loaded, diskBytes), store, env, dir, dbName }
  } finally {
    await server.stop()
  }
}

function lineOf(
  db: 'pglite' | 'postgres',
  parcels: number,
  loaded: LoaderResult,
  diskBytes: number | null,
): Omit<ScaleLine, 'run' | 'store'> {
  const rows = Object.values(loaded.rows).reduce((a, b) => a + b, 0)
  return {
    db,
    parcels: loaded.rows.parcels ?? parcels,
    rows,
    loadMs: loaded.ms,
    rowsPerS: rows / (loaded.ms / 1000),
    dbBytes: loaded.dbBytes,
    diskBytes,
  }
}

const serverEnv = (env: Record<string, string>) => ({ ...env, DAILY_LOOKUP_LIMIT: '1000000', DEMO_DATA: 'false' })

/** Per endpoint, the line of the round with the median p95 (the lower middle of an even count). */
function medianRun(runs: ApiRun[]): ApiRun {
  const first = runs[0] as ApiRun
  const lines = first.lines.map((line) => {
    const same = runs
      .map((r) => r.lines.find((l) => l.name === line.name))
      .filter((l): l is ApiLine => l !== undefined)
      .sort((a, b) => a.api.latency.p95 - b.api.latency.p95)
    return same[Math.floor((same.length - 1) / 2)] ?? line
  })
  return { ...first, lines }
}

/**
 * Every size loaded into its own fresh database (rows/s, size, the tile store's fill), then section 1 run on
 * each size in `rounds` rounds, the sizes in turn (forward, then backward), so a machine whose load changes
 * during the hour a large size takes weighs on every size alike; each endpoint's p95 is its median over the
 * rounds. Latency should stay flat: every lookup and tile is index-bound. `name` prefixes the PostgreSQL
 * databases and the embedded ones' directories, dropped before each size and after the run, so two runs on
 * one server need two names. `keep`: the PostgreSQL databases stay after the run, marked with their load's
 * figures, and a later run with the same name and size measures them again without loading them (nor
 * filling their tile store, so the table shows no fill for them). Without tiles among the endpoints the
 * rounds' servers run without the tile store, whose fill would otherwise run beside the lookups measured.
 */
export async function scaleSection(o: {
  sizes: number[]
  name: string
  dbs: ('pglite' | 'postgres')[]
  rounds: number
  api: ApiOptions
  pgUrl: string | undefined
  keep: boolean
  show: (t: Table) => void
  log: (s: string) => void
}): Promise<ScaleLine[]> {
  const lines: ScaleLine[] = []
  const tiles = o.api.endpoints?.has('tiles') ?? true
  for (const db of o.dbs) {
    if (db === 'postgres' && !o.pgUrl) continue
    const loaded: Loaded[] = []
    try {
      for (const parcels of o.sizes) loaded.push(await loadSize(o, db, parcels))
      const runs = loaded.map((): ApiRun[] => [])
      for (let round = 0; round < o.rounds; round++) {
        const order = loaded.map((_, i) => i)
        if (round % 2 === 1) order.reverse()
        for (const i of order) {
          const size = loaded[i] as Loaded
          o.log(`Scale: ${db}, ${size.parcels.toLocaleString('en-US')} parcels, round ${round + 1} of ${o.rounds}…`)
          const server = await startBenchServer({ ...serverEnv(size.env), ...(tiles ? {} : { TILE_STORE: 'false' }) })
          try {
            runs[i]?.push(await benchApi(server, o.api, o.log))
          } finally {
            await server.stop()
          }
        }
      }
      loaded.forEach(({ env: _env, dir: _dir, dbName: _dbName, ...line }, i) =>
        lines.push({ ...line, run: medianRun(runs[i] ?? []) }),
      )
    } finally {
      // A million parcels fill most of a gigabyte (docs/performance.md, "Scale"): every size's database goes,
      // unless kept.
      for (const size of loaded) {
        rmSync(size.dir, { recursive: true, force: true })
        if (db === 'postgres' && !o.keep) await freshPostgres(o.pgUrl as string, size.dbName, false)
      }
    }
  }
  o.show(scaleTable(lines))
  return lines
}

export function scaleTable(lines: ScaleLine[]): Table {
  const names = [
    '/api/planning',
    '/api/search',
    '/api/search, in the ward',
    '/api/valuation',
    'tiles, cold',
    'tiles, server-cached',
  ]
  const p95 = (l: ScaleLine, name: string) => l.run.lines.find((x) => x.name === name)?.api.latency.p95
  const base = new Map<string, ScaleLine>()
  for (const l of lines) if (!base.has(l.db)) base.set(l.db, l)
  return {
    title: '2. Scale — API p95 in ms (× the smallest size), load throughput and size',
    head: [
      'database',
      'parcels',
      'rows',
      'load s',
      'rows/s',
      'DB MB',
      ...names.map((n) => n.replace('/api/', '')),
      'worst p95 ratio to raw',
      'tile store: fill s, tiles, gzip MB, on disk MB',
      'on disk MB per 100k parcels',
      'planning p95 while it fills',
    ],
    rows: lines.map((l) => {
      const first = base.get(l.db) as ScaleLine
      return [
        l.db,
        fmt.int(l.parcels),
        fmt.int(l.rows),
        fmt.n(l.loadMs / 1000, 1),
        fmt.int(l.rowsPerS),
        fmt.mb(l.dbBytes ?? l.diskBytes),
        ...names.map((n) => `${fmt.ms(p95(l, n))} (${fmt.ratio(ratio(p95(l, n), p95(first, n)))})`),
        fmt.ratio(Math.max(...l.run.lines.map((x) => x.p95Ratio ?? 0))),
        l.store
          ? `${fmt.n(l.store.seconds)}, ${fmt.int(l.store.tiles)}, ${fmt.mb(l.store.bytes)}, ${fmt.mb(l.store.diskBytes)}`
          : '—',
        l.store ? fmt.mb((l.store.diskBytes / l.parcels) * 1e5) : '—',
        l.store
          ? `${fmt.ms(l.store.planningP95)} (${fmt.ratio(ratio(l.store.planningP95, p95(l, '/api/planning')))} of after)${l.store.endedDuringLoad ? ', the fill ended during the load' : ''}`
          : '—',
      ]
    }),
    notes: [
      'rows = every row the generator writes (parcels, land use, streets, zones, reserves, features, prices, sales); DB MB = pg_database_size.',
      'tile store: the fill the server starts on the freshly loaded data (every tile of every set, tiles/store-fill.ts), started_at \u2192 finished_at, while /api/planning is loaded from the server being ready (the p95 column, against the same figure once filled); gzip MB = the tiles stored, on disk = tile_store with its TOAST and index.',
    ],
  }
}
