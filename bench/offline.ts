import { planArea, type Bbox } from '#core/offline/tile-grid.ts'
import { PACK_CONCURRENCY, packPath, planPacks, PACK_TILES } from '#core/offline/tile-pack.ts'
import { execFileSync } from 'node:child_process'
import { readFileSync } from 'node:fs'
import { launch } from './lib/browser.ts'
import { startBenchServer, type BenchServer } from './lib/server-process.ts'
import { ratio } from './lib/stats.ts'
import { fmt, type Table } from './lib/table.ts'
import { boxAround, tileList, type TileRef } from './lib/tile-math.ts'
import type { Samples } from './lib/workloads.ts'

const LINK_BYTES_PER_S = 10e6 / 8
const CONCURRENCY = 6

/**
 * What a pass cost the machine, which its load hardly moves (the seconds it does): statements the
 * server sent, the server process's CPU, and the CPU of its PostgreSQL backends when they run on this
 * machine (null on PGlite, which runs in the server process, or a remote database).
 */
type Cost = { statements: number; serverCpuS: number; dbCpuS: number | null }
type Pass = {
  tiles: number
  nonEmpty: number
  bytes: number
  seconds: number
  bytesPerS: number
  failed: number
  requests: number
} & Cost
export type OfflineResult = {
  area: { widthM: number; heightM: number; center: { lat: number; lng: number } }
  cold: Pass
  cached: Pass
  packs: { cold: Pass; cached: Pass; changed: Pass }
}

/** The tiles an offline "save this area" needs: every layer over 2 × 2 km at z12–18 (parcels from z16). */
export function offlineTiles(center: { lat: number; lng: number }): TileRef[] {
  return tileList(boxAround(center.lng, center.lat, 2000, 2000), [
    { layer: 'basemap', minzoom: 12, maxzoom: 18 },
    { layer: 'planning', minzoom: 12, maxzoom: 18 },
    { layer: 'parcels', minzoom: 16, maxzoom: 18 },
  ])
}

/** The same tiles cut into packs as the app asks for them (core/offline/tile-pack.ts). */
export function offlinePacks(center: { lat: number; lng: number }): { path: string; tiles: number }[] {
  const b = boxAround(center.lng, center.lat, 2000, 2000)
  const bbox: Bbox = [b.west, b.south, b.east, b.north]
  const world = { minzoom: 12, maxzoom: 18, bounds: [-180, -85, 180, 85] as Bbox }
  const plan = planArea(bbox, 12, 18, { basemap: world, planning: world, parcels: { ...world, minzoom: 16 } })
  return [...planPacks(plan)].map((p) => ({ path: packPath(p), tiles: p.tiles.length }))
}

type Mode = { name: string; paths: string[]; concurrency: number; tiles: number }

/**
 * Fetches the requests from a page of the server's origin, `concurrency` at a time, over a link
 * Chromium throttles to 10 Mbit/s; bytes are those on the wire. Twice per mode, each mode on a server
 * of its own: first on one that has never rendered these tiles, then again from its cache.
 */
export async function offlineSection(o: {
  show: (t: Table) => void
  log: (s: string) => void
  db: string
  serverEnv: Record<string, string>
}): Promise<OfflineResult> {
  const browser = await launch()
  const out: Partial<Record<'tiles' | 'packs', { cold: Pass; cached: Pass }>> = {}
  let changed: Pass | undefined
  let center: { lat: number; lng: number } | undefined
  try {
    for (const which of ['tiles', 'packs'] as const) {
      const server = await startBenchServer(o.serverEnv)
      try {
        const samples = await server.call<Samples>({ cmd: 'samples' })
        center = samples.center
        const tiles = offlineTiles(samples.center)
        const packs = offlinePacks(samples.center)
        const mode: Mode =
          which === 'tiles'
            ? {
                name: 'one request per tile',
                paths: tiles.map((t) => `/tiles/${t.layer}/${t.z}/${t.x}/${t.y}.pbf`),
                concurrency: CONCURRENCY,
                tiles: tiles.length,
              }
            : {
                name: `packs of ≤ ${PACK_TILES} tiles`,
                paths: packs.map((p) => p.path),
                concurrency: PACK_CONCURRENCY,
                tiles: packs.reduce((n, p) => n + p.tiles, 0),
              }
        o.log(
          `Offline download (${mode.name}): ${mode.tiles} tiles in ${mode.paths.length} requests, cold then cached…`,
        )
        const cold = await costOf(server, () => pass(browser, server.url, mode))
        const cached = await costOf(server, () => pass(browser, server.url, mode))
        out[which] = { cold, cached }
        if (which === 'packs') {
          // The tiles of a new data version on the server that has been running: what every download meets after an import.
          await server.call({ cmd: 'bump-version' })
          // A server without a live version watch (PGlite) reads the version again after at most a second.
          await new Promise((r) => setTimeout(r, 1100))
          changed = await costOf(server, () => pass(browser, server.url, mode))
        }
      } finally {
        await server.stop()
      }
    }
  } finally {
    await browser.close()
  }
  const row = (name: string, p: Pass) => [
    name,
    String(p.tiles),
    String(p.requests),
    fmt.n(p.bytes / 1e6, 2),
    fmt.n(p.seconds, 1),
    fmt.n(p.bytesPerS / 1e6, 2),
    fmt.ratio(ratio(p.bytesPerS, LINK_BYTES_PER_S)),
    String(p.failed),
    String(p.statements),
    fmt.n(p.serverCpuS, 2),
    p.dbCpuS === null ? '—' : fmt.n(p.dbCpuS, 2),
  ]
  const c = center!
  o.show({
    title: `4. Offline download — ${o.db}, 2 × 2 km at z12–18 around ${c.lat.toFixed(4)}, ${c.lng.toFixed(4)}, link throttled to 10 Mbit/s (1.25 MB/s)`,
    head: [
      'how',
      'tiles',
      'requests',
      'MB',
      'seconds',
      'MB/s',
      'of link',
      'failed',
      'statements',
      'server CPU s',
      'PostgreSQL CPU s',
    ],
    rows: [
      row(`tiles, ${CONCURRENCY} at a time, cold server`, out.tiles!.cold),
      row(`tiles, ${CONCURRENCY} at a time, server-cached`, out.tiles!.cached),
      row(`packs, ${PACK_CONCURRENCY} at a time, cold server`, out.packs!.cold),
      row(`packs, ${PACK_CONCURRENCY} at a time, server-cached`, out.packs!.cached),
      row(`packs, ${PACK_CONCURRENCY} at a time, after a data change`, changed!),
    ],
    notes: [
      'MB on the wire (gzip-encoded tiles plus headers; a pack carries each tile gzipped with a 24-byte head); "of link" = MB/s ÷ 1.25 MB/s; target ≥ 0.8× cold and cached.',
      'cold = a fresh server process that never rendered these tiles (each mode on its own); after a data change = the same server once the data version moved on (as an import does), so it renders every tile again with its code and connections warm; a failed pack counts all its tiles.',
      'statements and CPU seconds: what the pass cost the server process and its PostgreSQL backends (— on PGlite, inside the server process); the load hardly moves them, the seconds it does.',
    ],
  })
  return {
    area: { widthM: 2000, heightM: 2000, center: c },
    cold: out.tiles!.cold,
    cached: out.tiles!.cached,
    packs: { ...out.packs!, changed: changed! },
  }
}

const clockTicks = (() => {
  try {
    return Number(execFileSync('getconf', ['CLK_TCK']).toString()) || 100
  } catch {
    return 100
  }
})()

/** CPU seconds a process has used so far (Linux /proc), or null when it is not on this machine. */
function processCpuS(pid: number): number | null {
  try {
    // Fields after the command name (which may hold spaces): utime and stime are the 12th and 13th.
    const fields = readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1]!.split(' ')
    return (Number(fields[11]) + Number(fields[12])) / clockTicks
  } catch {
    return null
  }
}

/** CPU seconds of each PostgreSQL backend of the server's database, by pid; null on PGlite or when they are not on this machine. */
async function backendsCpuS(server: BenchServer): Promise<Map<number, number> | null> {
  if (server.kind !== 'postgres') return null
  const rows = await server.call<{ pid: number }[]>({
    cmd: 'query',
    sql: 'select pid from pg_stat_activity where datname = current_database() and pid <> pg_backend_pid()',
  })
  const out = new Map<number, number>()
  for (const { pid } of rows) {
    const cpu = processCpuS(pid)
    if (cpu === null) return null
    out.set(pid, cpu)
  }
  return out
}

async function costOf(server: BenchServer, run: () => Promise<Omit<Pass, keyof Cost>>): Promise<Pass> {
  type Counters = { statements: number; cpuMs: number }
  const before = await server.call<Counters>({ cmd: 'statements' })
  const db0 = await backendsCpuS(server)
  const p = await run()
  const after = await server.call<Counters>({ cmd: 'statements' })
  const db1 = await backendsCpuS(server)
  // Backends opened during the pass count from zero. The first read of pg_stat_activity is counted
  // between the two statement counts, and is not the pass's.
  const dbCpuS = db0 && db1 ? [...db1].reduce((s, [pid, cpu]) => s + cpu - (db0.get(pid) ?? 0), 0) : null
  const own = server.kind === 'postgres' ? 1 : 0
  return {
    ...p,
    statements: after.statements - before.statements - own,
    serverCpuS: (after.cpuMs - before.cpuMs) / 1000,
    dbCpuS,
  }
}

async function pass(
  browser: Awaited<ReturnType<typeof launch>>,
  origin: string,
  mode: Mode,
): Promise<Omit<Pass, keyof Cost>> {
  const context = await browser.newContext()
  try {
    const page = await context.newPage()
    await page.goto(`${origin}/api/health`)
    const cdp = await context.newCDPSession(page)
    await cdp.send('Network.enable')
    // Caching off: each pass goes to the server, as a first download of the area would.
    await cdp.send('Network.setCacheDisabled', { cacheDisabled: true })
    await cdp.send('Network.emulateNetworkConditions', {
      offline: false,
      latency: 0,
      downloadThroughput: LINK_BYTES_PER_S,
      uploadThroughput: LINK_BYTES_PER_S,
    })
    const p = await page.evaluate(
      async ({ paths, concurrency }) => {
        performance.clearResourceTimings()
        performance.setResourceTimingBufferSize(paths.length + 100)
        let next = 0
        let withData = 0
        let tiles = 0
        let failed = 0
        const t0 = performance.now()
        const worker = async () => {
          while (next < paths.length) {
            const path = paths[next++] as string
            try {
              const res = await fetch(path, { cache: 'no-store' })
              const body = new Uint8Array(await res.arrayBuffer())
              if (path.startsWith('/tiles/pack')) {
                // The header's entry count, then each entry's kind (1 = a tile with data).
                const view = new DataView(body.buffer)
                const n = res.status === 200 ? view.getUint32(12) : 0
                if (res.status !== 200) failed += 1
                let at = 16
                for (let i = 0; i < n; i++) {
                  if (body[at + 2] === 1) withData += 1
                  at += 24 + view.getUint32(at + 12)
                }
                tiles += n
              } else {
                tiles += 1
                if (res.status === 200) withData += 1
                else if (res.status !== 204) failed += 1
              }
            } catch {
              failed += 1
            }
          }
        }
        await Promise.all(Array.from({ length: concurrency }, worker))
        const seconds = (performance.now() - t0) / 1000
        const bytes = (performance.getEntriesByType('resource') as PerformanceResourceTiming[])
          .filter((e) => e.name.includes('/tiles/'))
          .reduce((s, e) => s + (e.transferSize || e.encodedBodySize), 0)
        return { tiles, nonEmpty: withData, bytes, seconds, bytesPerS: bytes / seconds, failed, requests: paths.length }
      },
      { paths: mode.paths, concurrency: mode.concurrency },
    )
    return p
  } finally {
    await context.close()
  }
}
