/**
 * The server under test, as a child of `npm run bench`: the real server (startServer) plus an IPC
 * channel through which the benchmark runs the raw SQL on the very same Database object, so raw and API
 * figures share the driver, the pool or the embedded instance, and the process.
 */
import { Session } from 'node:inspector/promises'
import { loadConfig } from '../server/src/config.ts'
import type { Database } from '../server/src/db/index.ts'
import { startServer } from '../server/src/server.ts'
import { tileStoreStatus } from '../server/src/tiles/store-fill.ts'
import { bumpDataVersion } from '../server/src/tiles/version.ts'
import { pickSamples, rawOperation, runLoad, type Samples, type Workload } from './lib/workloads.ts'

export type ChildRequest =
  | { id: number; cmd: 'samples' }
  | { id: number; cmd: 'profile'; action: 'start' | 'stop' }
  | { id: number; cmd: 'raw'; workload: Workload; connections: number; durationMs?: number; amount?: number }
  | { id: number; cmd: 'query'; sql: string; params?: unknown[] }
  | { id: number; cmd: 'memory' }
  | { id: number; cmd: 'statements' }
  | { id: number; cmd: 'bump-version' }
  | { id: number; cmd: 'startup-work' }
export type ChildReply = { id: number; ok: true; result: unknown } | { id: number; ok: false; error: string }
export type ChildReady = { ready: true; port: number; kind: string; startMs: number }

const t0 = performance.now()
const config = loadConfig()
const running = await startServer(config)
const { db } = running
const countDeps = { db, config, logger: running.logger, now: () => new Date() }
let samples: Samples | undefined
let profiler: { session: Session; cpu: NodeJS.CpuUsage } | undefined

// Every statement the app and the raw runs send goes through this one object, so counting here gives
// statements per request: a figure the machine's load cannot blur.
let statements = 0
const query = db.query.bind(db)
;(db as { query: Database['query'] }).query = (sql, params, opts) => {
  statements += 1
  // The options too: a statement the app prepares must stay prepared under the bench.
  return query(sql, params, opts)
}

async function handle(msg: ChildRequest): Promise<unknown> {
  switch (msg.cmd) {
    case 'samples':
      samples ??= await pickSamples(db)
      return samples
    case 'raw': {
      samples ??= await pickSamples(db)
      return runLoad(rawOperation(countDeps, samples, msg.workload), msg)
    }
    case 'query':
      return db.query(msg.sql, msg.params)
    case 'statements':
      return { statements, cpuMs: (process.cpuUsage().user + process.cpuUsage().system) / 1000 }
    case 'startup-work':
      // The tile store filled for the data (what a deployed server has done long before it is measured).
      await running.startupWork
      return tileStoreStatus(db)
    case 'bump-version':
      // As an import does: every tile of the new version is one the server has not rendered.
      return db.transaction((tx) => bumpDataVersion(tx))
    case 'memory':
      // Started with --expose-gc: the idle figure is what stays after a collection, not garbage.
      ;(globalThis as { gc?: () => void }).gc?.()
      return process.memoryUsage()
    case 'profile':
      // V8's sampling profiler over exactly the load the bench drives (bench/profile.ts); the stop answers
      // the profile and the process's CPU time (user + system) while it ran.
      if (msg.action === 'start') {
        const session = new Session()
        session.connect()
        await session.post('Profiler.enable')
        await session.post('Profiler.setSamplingInterval', { interval: 1000 })
        await session.post('Profiler.start')
        profiler = { session, cpu: process.cpuUsage() }
        return null
      } else {
        if (!profiler) throw new Error('no profile started')
        const { session, cpu } = profiler
        const { profile } = await session.post('Profiler.stop')
        const used = process.cpuUsage(cpu)
        session.disconnect()
        profiler = undefined
        return { profile, cpuMs: (used.user + used.system) / 1000 }
      }
  }
}

process.on('message', (msg: ChildRequest) => {
  handle(msg).then(
    (result) => process.send?.({ id: msg.id, ok: true, result } satisfies ChildReply),
    (err: unknown) =>
      process.send?.({
        id: msg.id,
        ok: false,
        error: err instanceof Error ? (err.stack ?? err.message) : String(err),
      } satisfies ChildReply),
  )
})
process.on('disconnect', () => {
  running.close().finally(() => process.exit(0))
})
process.send?.({
  ready: true,
  port: running.port,
  kind: db.kind,
  startMs: Math.round(performance.now() - t0),
} satisfies ChildReady)
