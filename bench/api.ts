import { runHttp, benchToken, type HttpRequest } from './lib/http-load.ts'
import type { BenchServer } from './lib/server-process.ts'
import { pool, ratio, type LoadResult } from './lib/stats.ts'
import { fmt, type Table } from './lib/table.ts'
import { tileList, type TileRef } from './lib/tile-math.ts'
import type { Samples, Workload } from './lib/workloads.ts'

/** `endpoints`: the lines to run (all when absent), for a quick before/after of one endpoint. */
export type ApiOptions = {
  connections: number
  durationMs: number
  rounds: number
  warmupMs: number
  users: number
  coldTiles: number
  endpoints?: Set<ApiEndpoint>
}
export const apiEndpoints = ['planning', 'search', 'search-ward', 'valuation', 'tiles'] as const
export type ApiEndpoint = (typeof apiEndpoints)[number]
/** Per request, counted in the server process: database statements, and CPU time of that process. */
export type ApiLine = {
  name: string
  api: LoadResult
  raw: LoadResult
  p95Ratio: number | null
  target: number
  apiSql: number
  rawSql: number
  apiCpuMs: number
  rawCpuMs: number
}
export type ApiRun = {
  db: string
  parcels: number
  lines: ApiLine[]
  rss: { idle: number; peak: number; after: number }
  startMs: number
}

/** The ids of the accounts benchToken made, in its order: raw loop k counts against the account of connection k. */
async function benchUserIds(server: BenchServer, users: number): Promise<string[]> {
  const emails = Array.from({ length: users }, (_, u) => `bench-${u}@bench.invalid`)
  const rows = await server.call<{ id: string; email: string }[]>({
    cmd: 'query',
    sql: 'select id::text as id, email from users where email = any($1)',
    params: [emails],
  })
  return emails.map((e) => {
    const row = rows.find((r) => r.email === e)
    if (!row) throw new Error(`bench account ${e} is missing`)
    return row.id
  })
}

/** Tiles asked through the API before the cold ones are timed (not among them). */
const WARM_TILES = 100

/** Targets from issue 9: a lookup's p95 within 1.3× its raw SQL, a tile's within 1.2×. */
export const TARGETS = { lookup: 1.3, tile: 1.2 }

/** The tile sets over the data at the zooms the map draws them, in a fixed spread-out order. */
export function benchTiles(samples: Samples, max: number): TileRef[] {
  const all = tileList(samples.bounds, [
    { layer: 'basemap', minzoom: 12, maxzoom: 18 },
    { layer: 'planning', minzoom: 12, maxzoom: 18 },
    { layer: 'parcels', minzoom: 16, maxzoom: 18 },
  ])
  // A stride through the list keeps every layer and zoom when a large dataset has more tiles than `max`.
  const step = Math.max(1, all.length / max)
  const picked: TileRef[] = []
  for (let k = 0; k < all.length && picked.length < max; k += step) picked.push(all[Math.floor(k)] as TileRef)
  // Interleave, as a map screen asks for tiles of several layers and zooms at once.
  return picked
    .map((t, i) => ({ t, key: (i * 2654435761) % 4294967291 }))
    .sort((a, b) => a.key - b.key)
    .map((x) => x.t)
}

export type Kind = 'planning' | 'valuation' | 'search' | 'search-ward' | 'tiles'

/** The line of each lookup in the tables. */
export const lineName = (kind: Exclude<Kind, 'tiles'>) =>
  kind === 'search-ward' ? '/api/search, in the ward' : `/api/${kind}`

export function requestFor(kind: Kind, samples: Samples, tiles: TileRef[]): (i: number) => HttpRequest {
  const { points, queries } = samples
  const point = (i: number) => points[i % points.length] as { lat: number; lng: number }
  switch (kind) {
    case 'planning':
      return (i) => ({ method: 'GET', path: `/api/planning?lat=${point(i).lat}&lng=${point(i).lng}` })
    case 'valuation':
      return (i) => ({ method: 'POST', path: '/api/valuation', body: JSON.stringify(point(i)) })
    case 'search':
      return (i) => ({
        method: 'GET',
        path: `/api/search?q=${encodeURIComponent(queries[i % queries.length] as string)}&limit=10`,
      })
    case 'search-ward':
      return (i) => ({
        method: 'GET',
        path: `/api/search?q=${encodeURIComponent(queries[i % queries.length] as string)}&limit=10&lat=${point(i).lat}&lng=${point(i).lng}`,
      })
    case 'tiles':
      return (i) => {
        const t = tiles[i % tiles.length] as TileRef
        return { method: 'GET', path: `/tiles/${t.layer}/${t.z}/${t.x}/${t.y}.pbf` }
      }
  }
}

/**
 * Every endpoint under the same load, its raw SQL inside the server process and the HTTP API taking
 * turns for `rounds` rounds (so a neighbour's burst on a shared machine hits both sides alike), each
 * side's latencies pooled over the rounds, after an untimed warm-up of each. Cold tiles: the tile list
 * is cut into one part per round and each part asked once by each side, the API on a server that has
 * never rendered it (the raw SQL warms the database's own caches, so both sides find them equally warm).
 */
export async function benchApi(server: BenchServer, opts: ApiOptions, log: (s: string) => void): Promise<ApiRun> {
  const samples = await server.call<Samples>({ cmd: 'samples' })
  const tokens: string[] = []
  for (let u = 0; u < opts.users; u++) tokens.push(await benchToken(server.url, u))
  const userIds = await benchUserIds(server, opts.users)
  // The first tiles of the list warm the tile route's code up and are not timed; the rest are the timed tiles,
  // each still one the server has not had in memory when asked.
  const listed = benchTiles(samples, opts.coldTiles + WARM_TILES)
  const warmTiles = listed.slice(0, WARM_TILES)
  const tiles = listed.slice(WARM_TILES)
  const idle = await idleRss(server)
  const lines: ApiLine[] = []
  const stopWatch = server.watchRss()

  const sql = { api: 0, raw: 0 }
  const cpu = { api: 0, raw: 0 }
  // autocannon returns at the deadline while the server still works on the requests in flight: wait
  // until no statement has run for 250 ms, so that work is neither counted nor timed in the next run.
  type Counters = { statements: number; cpuMs: number }
  const settled = async (): Promise<Counters> => {
    let last = await server.call<Counters>({ cmd: 'statements' })
    for (;;) {
      await new Promise((r) => setTimeout(r, 250))
      const now = await server.call<Counters>({ cmd: 'statements' })
      if (now.statements === last.statements) return now
      last = now
    }
  }
  const counted = async (side: 'api' | 'raw', run: () => Promise<LoadResult>) => {
    const before = await settled()
    const result = await run()
    const after = await settled()
    sql[side] += after.statements - before.statements
    // The settling polls themselves cost next to nothing: two IPC messages per 250 ms.
    cpu[side] += after.cpuMs - before.cpuMs
    return result
  }
  const raw = (workload: Workload, o: { durationMs?: number; amount?: number }) =>
    counted('raw', () => server.call<LoadResult>({ cmd: 'raw', workload, connections: opts.connections, ...o }))
  const http = (kind: Kind, list: TileRef[], o: { durationMs?: number; amount?: number }) =>
    counted('api', () =>
      runHttp(server.url, requestFor(kind, samples, list), { connections: opts.connections, tokens, ...o }),
    )
  const line = (name: string, api: LoadResult[], rawRuns: LoadResult[], target: number): ApiLine => {
    const a = pool(api)
    const r = pool(rawRuns)
    const perRequest = (n: number, runs: LoadResult[]) =>
      n /
      Math.max(
        1,
        runs.reduce((k, x) => k + x.sent, 0),
      )
    return {
      name,
      api: a,
      raw: r,
      p95Ratio: ratio(a.latency.p95, r.latency.p95),
      target,
      apiSql: perRequest(sql.api, api),
      rawSql: perRequest(sql.raw, rawRuns),
      apiCpuMs: perRequest(cpu.api, api),
      rawCpuMs: perRequest(cpu.raw, rawRuns),
    }
  }
  // Warm-ups are not counted: each line counts only its own timed runs.
  const resetCounts = () => {
    sql.api = 0
    sql.raw = 0
    cpu.api = 0
    cpu.raw = 0
  }
  const timed = { durationMs: opts.durationMs }

  const runs = (e: ApiEndpoint) => opts.endpoints?.has(e) ?? true
  for (const kind of ['planning', 'search', 'search-ward', 'valuation'] as const) {
    if (!runs(kind)) continue
    log(`  ${server.kind}: ${kind}`)
    const workload: Workload = kind === 'search' || kind === 'search-ward' ? { kind } : { kind, userIds }
    await raw(workload, { durationMs: opts.warmupMs })
    await http(kind, tiles, { durationMs: opts.warmupMs })
    resetCounts()
    const r: LoadResult[] = []
    const a: LoadResult[] = []
    for (let round = 0; round < opts.rounds; round++) {
      r.push(await raw(workload, timed))
      a.push(await http(kind, tiles, timed))
    }
    lines.push(line(lineName(kind), a, r, TARGETS.lookup))
  }

  if (runs('tiles')) {
    log(`  ${server.kind}: tiles (${tiles.length} distinct)`)
    // A tile the server has not in memory comes from the tile store, filled before the bench began: the raw
    // side is that read.
    await raw({ kind: 'stored-tiles', tiles }, { amount: tiles.length })
    // The raw side's code is warm from that pass; the API's from its own pass over other tiles (from the store too).
    await http('tiles', warmTiles, { amount: warmTiles.length })
    resetCounts()
    const rawCold: LoadResult[] = []
    const cold: LoadResult[] = []
    for (let round = 0; round < opts.rounds; round++) {
      const part = tiles.filter((_, i) => i % opts.rounds === round)
      rawCold.push(await raw({ kind: 'stored-tiles', tiles: part }, { amount: part.length }))
      cold.push(await http('tiles', part, { amount: part.length }))
    }
    lines.push(line('tiles, cold', cold, rawCold, TARGETS.tile))
    await raw({ kind: 'tiles', tiles }, { durationMs: opts.warmupMs })
    resetCounts()
    const rawHot: LoadResult[] = []
    const hot: LoadResult[] = []
    for (let round = 0; round < opts.rounds; round++) {
      rawHot.push(await raw({ kind: 'tiles', tiles }, timed))
      hot.push(await http('tiles', tiles, timed))
    }
    lines.push(line('tiles, server-cached', hot, rawHot, TARGETS.tile))
  }

  const peak = stopWatch()
  const after = await idleRss(server)
  return { db: server.kind, parcels: samples.parcels, lines, rss: { idle, peak, after }, startMs: server.startMs }
}

async function idleRss(server: BenchServer): Promise<number> {
  await server.call({ cmd: 'memory' })
  await new Promise((r) => setTimeout(r, 500))
  return server.rss()
}

export function apiTable(run: ApiRun, opts: ApiOptions): Table {
  return {
    title: `1. API vs raw SQL — ${run.db}, ${fmt.int(run.parcels)} parcels, ${opts.connections} connections, ${opts.rounds} × ${opts.durationMs / 1000} s per side (latency in ms)`,
    head: [
      'endpoint',
      'API req/s',
      'p50',
      'p95',
      'p99',
      'err',
      'raw req/s',
      'p50',
      'p95',
      'p99',
      'err',
      'SQL/req API/raw',
      'CPU ms/req API/raw',
      'p95 API/raw',
      'target',
      '',
    ],
    rows: run.lines.map((l) => [
      l.name,
      fmt.n(l.api.rps),
      fmt.ms(l.api.latency.p50),
      fmt.ms(l.api.latency.p95),
      fmt.ms(l.api.latency.p99),
      String(l.api.errors),
      fmt.n(l.raw.rps),
      fmt.ms(l.raw.latency.p50),
      fmt.ms(l.raw.latency.p95),
      fmt.ms(l.raw.latency.p99),
      String(l.raw.errors),
      `${fmt.n(l.apiSql, 2)} / ${fmt.n(l.rawSql, 2)}`,
      `${fmt.ms(l.apiCpuMs)} / ${fmt.ms(l.rawCpuMs)}`,
      fmt.ratio(l.p95Ratio),
      `≤ ${l.target}×`,
      fmt.target(l.p95Ratio, l.target),
    ]),
    notes: [
      "raw = the endpoint's SQL called directly on the server's Database in the server process, daily count included (no HTTP, token, validation, JSON); tiles, cold: the tile read from the tile store; server-cached: the tile's rows statement alone (no cutting, encoding, gzip, cache).",
      "tiles, cold = each tile once on a server that has not had it in memory (from the tile store, filled before the run); server-cached = the same tiles again, from the server's LRU.",
      "SQL/req = database statements per request, counted in the server process (token check, daily count, tile version included); CPU ms/req = that process's CPU time per request (on PGlite it holds the database too). Both hardly move with the machine's load; latency does.",
    ],
  }
}

export function memoryTable(runs: ApiRun[]): Table {
  return {
    title: '5. Server memory (RSS, MB)',
    head: ['database', 'idle after start', 'peak under load', 'after load', 'peak / idle'],
    rows: runs.map((r) => [
      r.db,
      fmt.mb(r.rss.idle),
      fmt.mb(r.rss.peak),
      fmt.mb(r.rss.after),
      fmt.ratio(ratio(r.rss.peak, r.rss.idle)),
    ]),
    notes: [
      'idle and after: after a forced GC; peak: sampled every 100 ms during section 1. PGlite runs PostgreSQL inside the server process, so its RSS holds the database too.',
    ],
  }
}
