/**
 * Where the server's CPU goes under one endpoint's load: the bench's server child (the real server) is
 * profiled with V8's sampling profiler while autocannon drives that endpoint as `npm run bench` does,
 * and the profile is summed up as CPU time per request by part (Node's HTTP and sockets, hono, zod, the
 * database driver, the app's own code, GC …) and by function, self and inclusive.
 *
 * On a loaded machine a sample's wall-clock interval mostly measures how long the process waited for a
 * core (a send on loopback wakes the receiver, which often takes the core), so the interval is not
 * used: every sample counts the same, and the process's CPU time over the run (user + system, kernel
 * work in its sends included) is shared out in proportion to the samples.
 *
 *   node bench/profile.ts [--endpoint planning|valuation|search|search-ward|tiles] [--duration S] [--connections N] [--top N] [--out FILE.cpuprofile]
 *
 * DATABASE_URL set: on PostgreSQL; otherwise on the bench's embedded database. The .cpuprofile opens in
 * Chrome DevTools (Performance) or speedscope.
 */
import { writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { parseArgs } from 'node:util'
import { apiEndpoints, benchTiles, requestFor, type ApiEndpoint } from './api.ts'
import { benchToken, runHttp } from './lib/http-load.ts'
import { startBenchServer } from './lib/server-process.ts'
import { fmt, renderTable } from './lib/table.ts'
import type { Samples } from './lib/workloads.ts'

const { values: args } = parseArgs({
  options: {
    endpoint: { type: 'string', default: 'planning' },
    duration: { type: 'string', default: '15' },
    connections: { type: 'string', default: '20' },
    top: { type: 'string', default: '25' },
    out: { type: 'string' },
  },
})
if (!(apiEndpoints as readonly string[]).includes(args.endpoint)) {
  process.stderr.write(`--endpoint is one of ${apiEndpoints.join(', ')}\n`)
  process.exit(2)
}
const endpoint = args.endpoint as ApiEndpoint
const connections = Number(args.connections)
const durationMs = Number(args.duration) * 1000
const top = Number(args.top)

type CallFrame = { functionName: string; url: string; lineNumber: number }
type ProfileNode = { id: number; callFrame: CallFrame; children?: number[] }
type CpuProfile = { nodes: ProfileNode[]; samples: number[] }

/** The part of the process a frame belongs to, from its script URL. */
function partOf(frame: CallFrame): string {
  const { url, functionName } = frame
  if (url === '') {
    if (functionName === '(garbage collector)') return 'GC'
    if (functionName === '(idle)') return 'idle'
    if (functionName === '(program)') return 'V8 and native, outside JS'
    return 'built-ins (JSON, RegExp …)'
  }
  if (url.startsWith('node:')) {
    const mod = url.slice(5).replace(/^internal\//, '')
    if (/^(_http|http)/.test(mod)) return 'node: http'
    if (/^(net|stream|streams\/|stream_base|dns|timers)/.test(mod)) return 'node: net, streams, timers'
    if (/^(zlib)/.test(mod)) return 'node: zlib'
    if (/^deps\/undici/.test(mod)) return 'node: undici (Headers, Response)'
    if (/^(webstreams)/.test(mod)) return 'node: web streams'
    return `node: ${mod.split('/')[0]}`
  }
  const pkg = /node_modules\/((?:@[^/]+\/)?[^/]+)/.exec(url)
  if (pkg) return pkg[1] as string
  const own = /\/((?:server\/src|core|bench)\/.*)$/.exec(url)
  if (own) return `app: ${own[1]?.startsWith('bench/') ? 'bench' : own[1]?.split('/').slice(0, -1).join('/')}`
  return url
}

function summarise(profile: CpuProfile, cpuMs: number, requests: number) {
  const byId = new Map(profile.nodes.map((n) => [n.id, n]))
  const parent = new Map<number, number>()
  for (const n of profile.nodes) for (const c of n.children ?? []) parent.set(c, n.id)
  const label = (f: CallFrame) =>
    `${f.functionName || '(anonymous)'} ${f.url ? `${f.url.replace(/^.*\/(node_modules|server\/src|core)\//, '$1/')}:${f.lineNumber + 1}` : ''}`.trim()
  const self = new Map<string, number>()
  const inclusive = new Map<string, number>()
  const parts = new Map<string, number>()
  let busy = 0
  let idle = 0
  const busySamples = profile.samples.filter((id) => byId.get(id)?.callFrame.functionName !== '(idle)').length
  const us = (1000 * cpuMs) / Math.max(1, busySamples)
  for (const id of profile.samples) {
    const node = byId.get(id)
    if (!node) continue
    const part = partOf(node.callFrame)
    if (part === 'idle') {
      idle += 1
      continue
    }
    busy += us
    parts.set(part, (parts.get(part) ?? 0) + us)
    const key = label(node.callFrame)
    self.set(key, (self.get(key) ?? 0) + us)
    const seen = new Set<string>()
    for (let at: number | undefined = id; at !== undefined; at = parent.get(at)) {
      const frame = byId.get(at)?.callFrame
      if (!frame || frame.functionName === '(root)') continue
      const k = label(frame)
      if (seen.has(k)) continue
      seen.add(k)
      inclusive.set(k, (inclusive.get(k) ?? 0) + us)
    }
  }
  const perReq = (us: number) => us / 1000 / Math.max(1, requests)
  const share = (us: number) => `${((100 * us) / Math.max(1, busy)).toFixed(1)} %`
  const rows = (m: Map<string, number>) =>
    [...m.entries()]
      .sort((a, b) => b[1] - a[1])
      .slice(0, top)
      .map(([k, us]) => [k, fmt.n(perReq(us), 3), share(us)])
  return { busy, idle, perReq, parts: rows(parts), self: rows(self), inclusive: rows(inclusive) }
}

const pgUrl = process.env.DATABASE_URL || undefined
const env = pgUrl
  ? { DATABASE_URL: pgUrl, DATA_DIR: join(tmpdir(), 'qh-bench', 'pg-files') }
  : { DATA_DIR: join(tmpdir(), 'qh-bench', 'pglite-demo'), DATABASE_URL: '' }
const server = await startBenchServer({ ...env, DAILY_LOOKUP_LIMIT: '1000000', DEMO_DATA: 'true' })
try {
  const samples = await server.call<Samples>({ cmd: 'samples' })
  const tokens: string[] = []
  for (let u = 0; u < connections; u++) tokens.push(await benchToken(server.url, u))
  const next = requestFor(endpoint, samples, benchTiles(samples, 600))
  // Warm-up: JIT, the token cache and (for tiles) the server's tile cache, so the profile shows the steady state.
  await runHttp(server.url, next, { connections, tokens, durationMs: 2000 })
  await server.call({ cmd: 'profile', action: 'start' })
  const run = await runHttp(server.url, next, { connections, tokens, durationMs })
  const { profile, cpuMs } = await server.call<{ profile: CpuProfile; cpuMs: number }>({
    cmd: 'profile',
    action: 'stop',
  })
  if (args.out) writeFileSync(args.out, JSON.stringify(profile))
  const s = summarise(profile, cpuMs, run.requests + run.errors)
  process.stdout.write(
    `${server.kind}, /${endpoint}: ${run.requests} answers (${run.errors} errors) in ${fmt.n(run.seconds, 1)} s, ${fmt.n(run.rps)} req/s; ` +
      `server CPU ${fmt.n(cpuMs)} ms = ${fmt.n(s.perReq(s.busy), 3)} ms per request; ${s.idle} of ${profile.samples.length} samples idle\n`,
  )
  const head = (what: string) => [what, 'CPU ms/req', 'share']
  process.stdout.write(renderTable({ title: 'By part (self time)', head: head('part'), rows: s.parts }) + '\n')
  process.stdout.write(
    renderTable({ title: `Top ${top} functions, self time`, head: head('function'), rows: s.self }) + '\n',
  )
  process.stdout.write(
    renderTable({ title: `Top ${top} functions, inclusive time`, head: head('function'), rows: s.inclusive }) + '\n',
  )
} finally {
  await server.stop()
}
process.exit(0)
