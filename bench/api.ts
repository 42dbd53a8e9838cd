import { runHttp, benchToken, type HttpRequest } from './lib/http-load.ts'
import type { BenchServer } from './lib/server-process.ts'
import { ratio, type LoadResult } from './lib/stats.ts'
import { fmt, type Table } from './lib/table.ts'
import { tileList, type TileRef } from './lib/tile-math.ts'
import type { Samples, Workload } from './lib/workloads.ts'

export type ApiOptions = { connections: number; durationMs: number; warmupMs: number; users: number; coldTiles: number }
export type ApiLine = { name: string; api: LoadResult; raw: LoadResult; p95Ratio: number | null; target: number }
export type ApiRun = { db: string; parcels: number; lines: ApiLine[]; rss: { idle: number; peak: number; after: number }; startMs: number }

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
  return picked.map((t, i) => ({ t, key: (i * 2654435761) % 4294967291 })).sort((a, b) => a.key - b.key).map((x) => x.t)
}

function requestFor(kind: 'planning' | 'valuation' | 'search' | 'tiles', samples: Samples, tiles: TileRef[]): (i: number) => HttpRequest {
  const { points, queries } = samples
  const point = (i: number) => points[i % points.length] as { lat: number; lng: number }
  switch (kind) {
    case 'planning':
      return (i) => ({ method: 'GET', path: `/api/planning?lat=${point(i).lat}&lng=${point(i).lng}` })
    case 'valuation':
      return (i) => ({ method: 'POST', path: '/api/valuation', body: JSON.stringify(point(i)) })
    case 'search':
      return (i) => ({ method: 'GET', path: `/api/search?q=${encodeURIComponent(queries[i % queries.length] as string)}&limit=10` })
    case 'tiles':
      return (i) => {
        const t = tiles[i % tiles.length] as TileRef
        return { method: 'GET', path: `/tiles/${t.layer}/${t.z}/${t.x}/${t.y}.pbf` }
      }
  }
}

/**
 * Every endpoint under the same load twice: first its raw SQL inside the server process, then the
 * HTTP API, each after an untimed warm-up of the same kind. Cold tiles ask each tile once, on a server
 * that has never rendered it (raw SQL first, so the database's own caches are equally warm for both).
 */
export async function benchApi(server: BenchServer, opts: ApiOptions, log: (s: string) => void): Promise<ApiRun> {
  const samples = await server.call<Samples>({ cmd: 'samples' })
  const tokens: string[] = []
  for (let u = 0; u < opts.users; u++) tokens.push(await benchToken(server.url, u))
  const tiles = benchTiles(samples, opts.coldTiles)
  const idle = await idleRss(server)
  const lines: ApiLine[] = []
  const stopWatch = server.watchRss()

  const raw = (workload: Workload, o: { durationMs?: number; amount?: number }) =>
    server.call<LoadResult>({ cmd: 'raw', workload, connections: opts.connections, ...o })
  const http = (kind: 'planning' | 'valuation' | 'search' | 'tiles', o: { durationMs?: number; amount?: number }) =>
    runHttp(server.url, requestFor(kind, samples, tiles), { connections: opts.connections, tokens, ...o })

  for (const kind of ['planning', 'search', 'valuation'] as const) {
    log(`  ${server.kind}: ${kind}`)
    await raw({ kind }, { durationMs: opts.warmupMs })
    const r = await raw({ kind }, { durationMs: opts.durationMs })
    await http(kind, { durationMs: opts.warmupMs })
    const a = await http(kind, { durationMs: opts.durationMs })
    lines.push({ name: `/api/${kind}`, api: a, raw: r, p95Ratio: ratio(a.latency.p95, r.latency.p95), target: TARGETS.lookup })
  }

  log(`  ${server.kind}: tiles (${tiles.length} distinct)`)
  await raw({ kind: 'tiles', tiles }, { amount: tiles.length })
  const rawCold = await raw({ kind: 'tiles', tiles }, { amount: tiles.length })
  const cold = await http('tiles', { amount: tiles.length })
  lines.push({ name: 'tiles, cold', api: cold, raw: rawCold, p95Ratio: ratio(cold.latency.p95, rawCold.latency.p95), target: TARGETS.tile })
  await raw({ kind: 'tiles', tiles }, { durationMs: opts.warmupMs })
  const rawHot = await raw({ kind: 'tiles', tiles }, { durationMs: opts.durationMs })
  const hot = await http('tiles', { durationMs: opts.durationMs })
  lines.push({ name: 'tiles, server-cached', api: hot, raw: rawHot, p95Ratio: ratio(hot.latency.p95, rawHot.latency.p95), target: TARGETS.tile })

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
    title: `1. API vs raw SQL — ${run.db}, ${fmt.int(run.parcels)} parcels, ${opts.connections} connections, ${opts.durationMs / 1000} s per run (latency in ms)`,
    head: ['endpoint', 'API req/s', 'p50', 'p95', 'p99', 'err', 'raw req/s', 'p50', 'p95', 'p99', 'err', 'p95 API/raw', 'target', ''],
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
      fmt.ratio(l.p95Ratio),
      `≤ ${l.target}×`,
      fmt.target(l.p95Ratio, l.target),
    ]),
    notes: [
      'raw = the same lookup SQL called directly on the server\'s Database in the server process (no HTTP, token, daily count, validation, JSON); tiles: the tile statement alone (no encoding, gzip, cache).',
      'tiles, cold = each tile once on a server that never rendered it; server-cached = the same tiles again, from the server\'s LRU.',
    ],
  }
}

export function memoryTable(runs: ApiRun[]): Table {
  return {
    title: '5. Server memory (RSS, MB)',
    head: ['database', 'idle after start', 'peak under load', 'after load', 'peak / idle'],
    rows: runs.map((r) => [r.db, fmt.mb(r.rss.idle), fmt.mb(r.rss.peak), fmt.mb(r.rss.after), fmt.ratio(ratio(r.rss.peak, r.rss.idle))]),
    notes: ['idle and after: after a forced GC; peak: sampled every 100 ms during section 1. PGlite runs PostgreSQL inside the server process, so its RSS holds the database too.'],
  }
}
