import { requestFor, type ApiOptions } from './api.ts'
import { benchToken, runHttp } from './lib/http-load.ts'
import { startBenchServer, type BenchServer } from './lib/server-process.ts'
import { percentile, pool, ratio, type LoadResult } from './lib/stats.ts'
import { fmt, type Table } from './lib/table.ts'

/** One set and zoom of the store: tiles stored, how many hold features, their gzip bytes. */
export type StoreZoom = { layer: string; z: number; tiles: number; nonEmpty: number; bytes: number }

export type StoreRun = {
  db: string
  parcels: number
  version: number
  zooms: StoreZoom[]
  /** tile_store with its TOAST and primary key on disk, after a VACUUM FULL (no space of older versions). */
  diskBytes: number
  /**
   * Seconds from the fill's start to its end (tile_store_fill), on an idle server and under the planning load (the
   * median of the rounds' fills; the load runs for one duration from each fill's start).
   */
  fillIdleS: number
  fillLoadedS: number
  /** Whether a fill under load ended before its load did (then "while it fills" is partly after). */
  fillEndedDuringLoad: boolean
  planning: { filling: LoadResult; filled: LoadResult }
}

type FillRow = { version: number; started: number | null; finished: number | null }

async function fillRow(server: BenchServer, version: number): Promise<FillRow | undefined> {
  const [row] = await server.call<FillRow[]>({
    cmd: 'query',
    sql: `select version::float8 as version, extract(epoch from started_at)::float8 as started,
            extract(epoch from finished_at)::float8 as finished from tile_store_fill where version = $1`,
    params: [version],
  })
  return row
}

/** Polls until `done` holds for the version's fill row; the embedded server notices a new version within 30 s. */
async function waitFill(server: BenchServer, version: number, done: (r: FillRow) => boolean, ms = 30 * 60_000) {
  const until = performance.now() + ms
  for (;;) {
    const row = await fillRow(server, version)
    if (row && done(row)) return row
    if (performance.now() > until) throw new Error(`the tile store's fill of version ${version} did not come in time`)
    await new Promise((r) => setTimeout(r, 200))
  }
}

/** A new data version, as an import makes; resolves once the server has begun filling the store for it. */
async function newVersion(server: BenchServer): Promise<number> {
  const version = await server.call<number>({ cmd: 'bump-version' })
  await waitFill(server, version, () => true, 120_000)
  return version
}

const seconds = (r: FillRow) => (r.finished as number) - (r.started as number)

/**
 * /api/planning at 200 points, `rounds` timed runs (o.rounds unless given), one account per connection; the
 * accounts are logged in first (a login hashes a password: seconds on a loaded machine), so the load starts when
 * `run` is called. Not section 1's run: it waits between runs for the server's statements to pause, which the
 * filler's writes put off.
 */
export async function planningLoad(
  server: BenchServer,
  o: ApiOptions,
): Promise<(rounds?: number) => Promise<LoadResult[]>> {
  const samples = await server.call<Parameters<typeof requestFor>[1]>({ cmd: 'samples' })
  const tokens: string[] = []
  for (let u = 0; u < o.users; u++) tokens.push(await benchToken(server.url, u))
  const next = requestFor('planning', samples, [])
  const timed = (durationMs: number) => runHttp(server.url, next, { connections: o.connections, tokens, durationMs })
  // Untimed: the server's code and statements warm, as in section 1.
  await timed(o.warmupMs)
  return async (rounds = o.rounds) => {
    const runs: LoadResult[] = []
    for (let round = 0; round < rounds; round++) runs.push(await timed(o.durationMs))
    return runs
  }
}

/**
 * The tile store on the demo data: fills under the planning load (its p95 while the store fills, against the same
 * load once filled; the two take turns, a round each, so the machine's other work weighs on both alike), a fill on
 * an idle server (its time), then what the store holds per set and zoom and its size on disk.
 */
export async function storeSection(o: {
  targets: { name: string; env: Record<string, string> }[]
  api: ApiOptions
  show: (t: Table) => void
  log: (s: string) => void
}): Promise<StoreRun[]> {
  const runs: StoreRun[] = []
  for (const target of o.targets) {
    o.log(`Tile store on ${target.name}: starting the server (the store filled for its data)…`)
    const server = await startBenchServer(target.env)
    try {
      const planning = await planningLoad(server, o.api)
      const filling: LoadResult[] = []
      const filled: LoadResult[] = []
      const loadedS: number[] = []
      let endedDuringLoad = false
      for (let round = 1; round <= o.api.rounds; round++) {
        o.log(`  round ${round}: planning while a new version fills, then with the store filled…`)
        const loadedVersion = await newVersion(server)
        filling.push(...(await planning(1)))
        const loadEnd = Date.now() / 1000
        const loaded = await waitFill(server, loadedVersion, (r) => r.finished !== null)
        endedDuringLoad ||= (loaded.finished as number) < loadEnd
        loadedS.push(seconds(loaded))
        filled.push(...(await planning(1)))
      }
      o.log('  a fill on the idle server…')
      const version = await newVersion(server)
      const idle = await waitFill(server, version, (r) => r.finished !== null)
      await server.call({ cmd: 'query', sql: 'vacuum full tile_store' })
      const zooms = await server.call<StoreZoom[]>({
        cmd: 'query',
        sql: `select layer, z::int as z, count(*)::int as tiles, count(gzip)::int as "nonEmpty",
                coalesce(sum(octet_length(gzip)), 0)::float8 as bytes
              from tile_store where version = $1 group by layer, z order by layer, z`,
        params: [version],
      })
      const [size] = await server.call<{ bytes: number }[]>({
        cmd: 'query',
        sql: `select pg_total_relation_size('tile_store')::float8 as bytes`,
      })
      const [count] = await server.call<{ n: number }[]>({
        cmd: 'query',
        sql: 'select count(*)::float8 as n from parcels',
      })
      runs.push({
        db: target.name,
        parcels: count?.n ?? 0,
        version,
        zooms,
        diskBytes: size?.bytes ?? Number.NaN,
        fillIdleS: seconds(idle),
        fillLoadedS: percentile(
          loadedS.sort((a, b) => a - b),
          50,
        ),
        fillEndedDuringLoad: endedDuringLoad,
        planning: { filling: pool(filling), filled: pool(filled) },
      })
    } finally {
      await server.stop()
    }
  }
  for (const t of storeTables(runs)) o.show(t)
  return runs
}

const sum = (zs: StoreZoom[], k: 'tiles' | 'nonEmpty' | 'bytes') => zs.reduce((a, z) => a + z[k], 0)

export function storeTables(runs: StoreRun[]): Table[] {
  const summary: Table = {
    title: 'Tile store — the demo data: size, fill time, and planning p95 while it fills (ms)',
    head: [
      'database',
      'parcels',
      'tiles',
      'with features',
      'gzip MB',
      'bytes / tile with features',
      'on disk MB',
      'on disk MB per 100k parcels',
      'fill s, idle',
      'fill s, under load',
      'planning req/s, p95: filling',
      'filled',
      'p95 filling / filled',
    ],
    rows: runs.map((r) => [
      r.db,
      fmt.int(r.parcels),
      fmt.int(sum(r.zooms, 'tiles')),
      fmt.int(sum(r.zooms, 'nonEmpty')),
      fmt.mb(sum(r.zooms, 'bytes')),
      fmt.int(sum(r.zooms, 'bytes') / sum(r.zooms, 'nonEmpty')),
      fmt.mb(r.diskBytes),
      fmt.mb((r.diskBytes / r.parcels) * 1e5),
      fmt.n(r.fillIdleS, 1),
      `${fmt.n(r.fillLoadedS, 1)}${r.fillEndedDuringLoad ? ' (ended during the load)' : ''}`,
      `${fmt.int(r.planning.filling.rps)}, ${fmt.ms(r.planning.filling.latency.p95)}`,
      `${fmt.int(r.planning.filled.rps)}, ${fmt.ms(r.planning.filled.latency.p95)}`,
      fmt.ratio(ratio(r.planning.filling.latency.p95, r.planning.filled.latency.p95)),
    ]),
    notes: [
      'A fill = every tile of every set over each dataset\u2019s box, z0\u201318 (tiles/store-fill.ts), after a new data version (as an import makes); fill s = tile_store_fill.started_at \u2192 finished_at.',
      'under load: /api/planning at 200 points, one account per connection, for one duration from a fill\u2019s start, then the same load once it has ended (filled); rounds of the two in turn, each side pooled; fill s under load: the median of the rounds\u2019 fills.',
      'on disk = tile_store with its TOAST and primary key after VACUUM FULL; gzip MB = the tiles\u2019 bytes alone.',
    ],
  }
  const layers = [...new Set(runs.flatMap((r) => r.zooms.map((z) => z.layer)))].sort()
  const zs = [...new Set(runs.flatMap((r) => r.zooms.map((z) => z.z)))].sort((a, b) => a - b)
  const perZoom: Table = {
    title: 'Tile store — tiles per set and zoom: stored (with features), and gzip kB',
    head: ['zoom', ...runs.flatMap((r) => layers.map((l) => `${r.db} ${l}`))],
    rows: zs.map((z) => [
      `z${z}`,
      ...runs.flatMap((r) =>
        layers.map((l) => {
          const row = r.zooms.find((x) => x.layer === l && x.z === z)
          return row ? `${fmt.int(row.tiles)} (${fmt.int(row.nonEmpty)}), ${fmt.kb(row.bytes)}` : '—'
        }),
      ),
    ]),
  }
  return [summary, perZoom]
}
