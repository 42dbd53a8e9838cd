import { launch } from './lib/browser.ts'
import { startBenchServer } from './lib/server-process.ts'
import { ratio } from './lib/stats.ts'
import { fmt, type Table } from './lib/table.ts'
import { boxAround, tileList, type TileRef } from './lib/tile-math.ts'
import type { Samples } from './lib/workloads.ts'

const LINK_BYTES_PER_S = 10e6 / 8
const CONCURRENCY = 6

type Pass = { tiles: number; nonEmpty: number; bytes: number; seconds: number; bytesPerS: number; failed: number }
export type OfflineResult = { area: { widthM: number; heightM: number; center: { lat: number; lng: number } }; cold: Pass; cached: Pass }

/** The tiles an offline "save this area" needs: every layer over 2 × 2 km at z12–18 (parcels from z16). */
export function offlineTiles(center: { lat: number; lng: number }): TileRef[] {
  return tileList(boxAround(center.lng, center.lat, 2000, 2000), [
    { layer: 'basemap', minzoom: 12, maxzoom: 18 },
    { layer: 'planning', minzoom: 12, maxzoom: 18 },
    { layer: 'parcels', minzoom: 16, maxzoom: 18 },
  ])
}

/**
 * Fetches the list from a page of the server's origin, 6 at a time as a browser would, over a link
 * Chromium throttles to 10 Mbit/s; bytes are those on the wire (gzip). Twice: on a server that has never
 * rendered these tiles, then again from its cache.
 */
export async function offlineSection(o: { show: (t: Table) => void; log: (s: string) => void; serverEnv: Record<string, string> }): Promise<OfflineResult> {
  const server = await startBenchServer(o.serverEnv)
  const browser = await launch()
  try {
    const samples = await server.call<Samples>({ cmd: 'samples' })
    const paths = offlineTiles(samples.center).map((t) => `/tiles/${t.layer}/${t.z}/${t.x}/${t.y}.pbf`)
    const context = await browser.newContext()
    const page = await context.newPage()
    await page.goto(`${server.url}/api/health`)
    const cdp = await context.newCDPSession(page)
    await cdp.send('Network.enable')
    // Caching off: each pass goes to the server, as a first download of the area would.
    await cdp.send('Network.setCacheDisabled', { cacheDisabled: true })
    await cdp.send('Network.emulateNetworkConditions', { offline: false, latency: 0, downloadThroughput: LINK_BYTES_PER_S, uploadThroughput: LINK_BYTES_PER_S })
    const pass = async (): Promise<Pass> =>
      page.evaluate(
        async ({ paths, concurrency }) => {
          performance.clearResourceTimings()
          performance.setResourceTimingBufferSize(paths.length + 100)
          let next = 0
          let nonEmpty = 0
          let failed = 0
          const t0 = performance.now()
          const worker = async () => {
            while (next < paths.length) {
              const path = paths[next++] as string
              try {
                const res = await fetch(path, { cache: 'no-store' })
                if (res.status === 200) nonEmpty += 1
                else if (res.status !== 204) failed += 1
                await res.arrayBuffer()
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
          return { tiles: paths.length, nonEmpty, bytes, seconds, bytesPerS: bytes / seconds, failed }
        },
        { paths, concurrency: CONCURRENCY },
      )
    o.log(`Offline download: ${paths.length} tiles, cold then cached…`)
    const cold = await pass()
    const cached = await pass()
    const row = (name: string, p: Pass) => [
      name,
      String(p.tiles),
      String(p.nonEmpty),
      fmt.n(p.bytes / 1e6, 2),
      fmt.n(p.seconds, 1),
      fmt.n(p.bytesPerS / 1e6, 2),
      fmt.ratio(ratio(p.bytesPerS, LINK_BYTES_PER_S)),
      String(p.failed),
    ]
    o.show({
      title: `4. Offline download — 2 × 2 km at z12–18 around ${samples.center.lat.toFixed(4)}, ${samples.center.lng.toFixed(4)}, link throttled to 10 Mbit/s (1.25 MB/s), ${CONCURRENCY} at a time`,
      head: ['server', 'tiles', 'with data', 'MB', 'seconds', 'MB/s', 'of link', 'failed'],
      rows: [row('cold (renders each tile)', cold), row('server-cached', cached)],
      notes: ['MB on the wire (gzip-encoded tiles plus headers); "of link" = MB/s ÷ 1.25 MB/s.'],
    })
    return { area: { widthM: 2000, heightM: 2000, center: samples.center }, cold, cached }
  } finally {
    await browser.close()
    await server.stop()
  }
}
