/**
 * `npm run bench [-- flags]`: API vs raw SQL, front-end sizes and Lighthouse, offline download and
 * memory, each as a table with its ratios; `--scale` adds the 20 k → 1 M parcel run. Loopback only,
 * every load bounded in time or count. Results also go to bench/results.json. docs/performance.md says
 * what each figure means.
 */
import { mkdirSync, writeFileSync } from 'node:fs'
import { cpus, freemem, loadavg, tmpdir, totalmem } from 'node:os'
import { join } from 'node:path'
import { parseArgs } from 'node:util'
import { apiEndpoints, apiTable, benchApi, memoryTable, type ApiEndpoint, type ApiOptions, type ApiRun } from './api.ts'
import { frontendSection } from './frontend.ts'
import { importSection } from './import.ts'
import { startBenchServer } from './lib/server-process.ts'
import { markdownTable, renderTable, type Table } from './lib/table.ts'
import { offlineSection } from './offline.ts'
import { revisionsSection } from './revisions.ts'
import { scaleSection } from './scale.ts'
import { storeSection } from './store.ts'
import { valuationSection } from './valuation.ts'

const usage = `npm run bench -- [--duration S] [--rounds N] [--connections N] [--users N] [--warmup S] [--cold-tiles N]
                  [--endpoints planning,search,search-ward,valuation,tiles] [--db pglite,postgres]
                  [--only api,front,offline,valuation,import,store] [--no-lighthouse] [--scale] [--scale-sizes 20000,200000,1000000]
                  [--scale-db pglite,postgres] [--scale-name qh_bench_scale] [--scale-rounds 2] [--scale-keep]
                  [--revisions REV,REV,… [--revision-rounds N] [--no-map-visible]] [--markdown FILE] [--listings FILE.csv]
  DATABASE_URL set: every server section runs on PostgreSQL as well as on the embedded database (--db picks one).
  Import section: BENCH_IMPORT_ROWS rows per format (10000), BENCH_IMPORT_GEOJSON_MB for a GeoJSON of that size,
  BENCH_IMPORT_DB=postgres|pglite for one database only.
  --scale-keep: the PostgreSQL scale databases stay after the run, and a later run with the same --scale-name measures
  a size already loaded by a kept run again without loading it or filling its tile store.
  --revisions: the front end's figures per change, each revision built and served by its own server, in turns
  (--no-map-visible: Lighthouse only, without the map-visible and controls-usable runs).
`
const { values: args } = parseArgs({
  options: {
    duration: { type: 'string', default: '3' },
    rounds: { type: 'string', default: '3' },
    connections: { type: 'string', default: '20' },
    users: { type: 'string' },
    warmup: { type: 'string', default: '1' },
    'cold-tiles': { type: 'string', default: '600' },
    endpoints: { type: 'string' },
    db: { type: 'string' },
    only: { type: 'string' },
    'no-lighthouse': { type: 'boolean', default: false },
    scale: { type: 'boolean', default: false },
    'scale-sizes': { type: 'string', default: '20000,200000,1000000' },
    'scale-db': { type: 'string' },
    'scale-name': { type: 'string', default: 'qh_bench_scale' },
    'scale-rounds': { type: 'string', default: '2' },
    'scale-keep': { type: 'boolean', default: false },
    revisions: { type: 'string' },
    'revision-rounds': { type: 'string', default: '3' },
    'no-map-visible': { type: 'boolean', default: false },
    markdown: { type: 'string' },
    listings: { type: 'string' },
    help: { type: 'boolean', short: 'h' },
  },
})
if (args.help) {
  process.stdout.write(usage)
  process.exit(0)
}
const num = (name: string, v: string, min: number, max: number) => {
  const n = Number(v)
  if (!Number.isFinite(n) || n < min || n > max) {
    process.stderr.write(`--${name} must be a number from ${min} to ${max}.\n${usage}`)
    process.exit(2)
  }
  return n
}
function endpointOf(e: string): ApiEndpoint {
  if (!(apiEndpoints as readonly string[]).includes(e)) {
    process.stderr.write(`--endpoints takes ${apiEndpoints.join(', ')}.\n${usage}`)
    process.exit(2)
  }
  return e as ApiEndpoint
}
const opts: ApiOptions = {
  durationMs: num('duration', args.duration, 1, 120) * 1000,
  rounds: num('rounds', args.rounds, 1, 20),
  connections: num('connections', args.connections, 1, 200),
  // One account per connection unless told otherwise: twenty phones, not one phone with twenty requests at once.
  users: args.users === undefined ? num('connections', args.connections, 1, 200) : num('users', args.users, 1, 200),
  warmupMs: num('warmup', args.warmup, 0, 30) * 1000,
  coldTiles: num('cold-tiles', args['cold-tiles'], 10, 20_000),
  ...(args.endpoints === undefined
    ? {}
    : { endpoints: new Set(args.endpoints.split(',').map((e) => endpointOf(e.trim()))) }),
}
const sections = new Set((args.only ?? 'api,front,offline,import').split(',').map((s) => s.trim()))
const scaleSizes = args['scale-sizes'].split(',').map((s) => num('scale-sizes', s, 1000, 5_000_000))
const pgUrl = process.env.DATABASE_URL || undefined
// The million-parcel load takes minutes on PostgreSQL and far longer embedded: PostgreSQL when it is there.
const scaleDbs = (args['scale-db'] ?? (pgUrl ? 'postgres' : 'pglite')).split(',').map((s) => {
  if (s !== 'pglite' && s !== 'postgres') {
    process.stderr.write(`--scale-db takes pglite and/or postgres.\n${usage}`)
    process.exit(2)
  }
  return s
})

// The prefix of the databases the scale section drops and creates (the size is added): nothing that needs quoting.
if (!/^[a-z_][a-z0-9_]{0,52}$/.test(args['scale-name'])) {
  process.stderr.write(`--scale-name takes a lower-case database name (letters, digits, _).\n${usage}`)
  process.exit(2)
}

const root = join(import.meta.dirname, '..')
const log = (s: string) => process.stderr.write(`${s}\n`)
const tables: Table[] = []
const show = (t: Table) => {
  tables.push(t)
  process.stdout.write(renderTable(t) + '\n')
}
const results: Record<string, unknown> = {
  date: new Date().toISOString(),
  machine: {
    cpus: cpus().length,
    cpu: cpus()[0]?.model ?? '',
    memoryGB: Math.round(totalmem() / 2 ** 30),
    freeGB: Math.round(freemem() / 2 ** 30),
    node: process.version,
  },
  options: { ...opts, sections: [...sections], scale: args.scale ? scaleSizes : false, postgres: Boolean(pgUrl) },
}

/** The embedded database lives under a reused temp dir, so its demo data loads only on the first run. */
const pgliteEnv = { DATA_DIR: join(tmpdir(), 'qh-bench', 'pglite-demo'), DATABASE_URL: '' }
const allTargets: { name: string; env: Record<string, string> }[] = [{ name: 'pglite', env: pgliteEnv }]
if (pgUrl)
  allTargets.push({ name: 'postgres', env: { DATABASE_URL: pgUrl, DATA_DIR: join(tmpdir(), 'qh-bench', 'pg-files') } })
// --db narrows the server sections to one database (postgres needs DATABASE_URL).
const targets = args.db === undefined ? allTargets : allTargets.filter((t) => args.db?.split(',').includes(t.name))
const serverEnv = (env: Record<string, string>) => ({ ...env, DAILY_LOOKUP_LIMIT: '1000000', DEMO_DATA: 'true' })

// The machine is shared: its load says how much to trust the absolute figures (ratios come from one run).
const header = `${String(results.date).slice(0, 16).replace('T', ' ')} UTC — ${cpus().length} cores (${cpus()[0]?.model.trim() ?? '?'}), ${Math.round(totalmem() / 2 ** 30)} GB, Node ${process.version}, load average at start ${loadavg()[0]?.toFixed(1)}`
process.stdout.write(`${header}\n`)
const t0 = performance.now()
let failed = false
try {
  if (sections.has('api')) {
    const runs: ApiRun[] = []
    for (const target of targets) {
      log(`Starting the server on ${target.name} (the first run loads the demo data)…`)
      mkdirSync(target.env.DATA_DIR as string, { recursive: true })
      const server = await startBenchServer(serverEnv(target.env))
      try {
        const run = await benchApi(server, opts, log)
        runs.push(run)
        show(apiTable(run, opts))
      } finally {
        await server.stop()
      }
    }
    results.api = runs
    show(memoryTable(runs))
  }
  if (args.scale)
    results.scale = await scaleSection({
      sizes: scaleSizes,
      name: args['scale-name'],
      dbs: scaleDbs,
      rounds: num('scale-rounds', args['scale-rounds'], 1, 9),
      api: opts,
      pgUrl,
      keep: args['scale-keep'],
      show,
      log,
    })
  if (sections.has('front'))
    results.frontend = await frontendSection({
      root,
      lighthouse: !args['no-lighthouse'],
      show,
      log,
      serverEnv: serverEnv(pgliteEnv),
    })
  if (args.revisions)
    results.revisions = await revisionsSection({
      root,
      revisions: args.revisions.split(',').map((r) => r.trim()),
      rounds: num('revision-rounds', args['revision-rounds'], 1, 20),
      mapVisible: !args['no-map-visible'],
      show,
      log,
    })
  if (sections.has('offline')) {
    const runs: Record<string, unknown> = {}
    for (const target of targets)
      runs[target.name] = await offlineSection({ show, log, db: target.name, serverEnv: serverEnv(target.env) })
    results.offline = runs
  }
  if (sections.has('store'))
    results.store = await storeSection({
      targets: targets.map((t) => ({ name: t.name, env: serverEnv(t.env) })),
      api: opts,
      show,
      log,
    })
  if (sections.has('valuation')) results.valuation = await valuationSection({ show, log, listings: args.listings })
  if (sections.has('import')) {
    const importTargets = targets.map((t) => ({
      name: t.name,
      env: t.name === 'pglite' ? { DATA_DIR: join(tmpdir(), 'qh-bench', 'import-pglite'), DATABASE_URL: '' } : t.env,
    }))
    results.import = await importSection({ show, log, targets: importTargets })
  }
} catch (err) {
  failed = true
  process.stderr.write(`\nBenchmark failed: ${err instanceof Error ? (err.stack ?? err.message) : String(err)}\n`)
} finally {
  results.seconds = Math.round((performance.now() - t0) / 1000)
  results.loadAverage = { start: Number(header.split('load average at start ')[1]), end: loadavg()[0] }
  results.tables = tables
  writeFileSync(join(import.meta.dirname, 'results.json'), JSON.stringify(results, null, 2) + '\n')
  if (args.markdown)
    writeFileSync(
      args.markdown,
      [`_${header}, at end ${loadavg()[0]?.toFixed(1)}_`, ...tables.map(markdownTable)].join('\n\n') + '\n',
    )
  process.stdout.write(`\nbench/results.json written; ${results.seconds} s in all.\n`)
}
process.exit(failed ? 1 : 0)
