import { fork, type ChildProcess } from 'node:child_process'
import { readFileSync } from 'node:fs'
import { join } from 'node:path'
import type { ChildReady, ChildReply, ChildRequest } from '../server-child.ts'

type Pending = { resolve: (v: unknown) => void; reject: (e: Error) => void }
type WithoutId<T> = T extends unknown ? Omit<T, 'id'> : never

/**
 * The server under test in its own process, with its RSS read from /proc while it runs. Resolves once the server
 * has also done its start-up work (the tile store filled), unless `startupWork` is false.
 */
export type BenchServer = {
  url: string
  kind: 'pglite' | 'postgres'
  pid: number
  startMs: number
  call<T>(req: WithoutId<ChildRequest>): Promise<T>
  /** Resident set size now, in bytes (Linux /proc). */
  rss(): number
  /** Samples RSS every 100 ms until the returned function is called; that returns the peak seen. */
  watchRss(): () => number
  stop(): Promise<void>
}

export async function startBenchServer(
  env: Record<string, string>,
  opts: { timeoutMs?: number; startupWork?: boolean } = {},
): Promise<BenchServer> {
  const child: ChildProcess = fork(join(import.meta.dirname, '../server-child.ts'), [], {
    env: { ...process.env, HOST: '127.0.0.1', PORT: '0', LOG_LEVEL: 'warn', TRUST_PROXY: 'true', ...env },
    execArgv: ['--expose-gc'],
    stdio: ['ignore', 'inherit', 'inherit', 'ipc'],
  })
  const pending = new Map<number, Pending>()
  let nextId = 1
  const ready = await new Promise<ChildReady>((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error('server did not start in time')), opts.timeoutMs ?? 20 * 60_000)
    child.once('exit', (code) => reject(new Error(`server exited with code ${code} before it was ready`)))
    child.on('message', (msg: ChildReady | ChildReply) => {
      if ('ready' in msg) {
        clearTimeout(timer)
        resolve(msg)
        return
      }
      const p = pending.get(msg.id)
      if (!p) return
      pending.delete(msg.id)
      if (msg.ok) p.resolve(msg.result)
      else p.reject(new Error(msg.error))
    })
  })
  child.removeAllListeners('exit')
  child.on('exit', () => {
    for (const p of pending.values()) p.reject(new Error('server exited'))
    pending.clear()
  })
  const pid = child.pid as number
  const rss = () => {
    const m = /VmRSS:\s+(\d+) kB/.exec(readFileSync(`/proc/${pid}/status`, 'utf8'))
    return m ? Number(m[1]) * 1024 : Number.NaN
  }
  const server: BenchServer = {
    url: `http://127.0.0.1:${ready.port}`,
    kind: ready.kind as 'pglite' | 'postgres',
    pid,
    startMs: ready.startMs,
    call<T>(req: WithoutId<ChildRequest>) {
      const id = nextId++
      return new Promise<T>((resolve, reject) => {
        pending.set(id, { resolve: resolve as (v: unknown) => void, reject })
        child.send({ ...req, id })
      })
    },
    rss,
    watchRss() {
      let peak = rss()
      const timer = setInterval(() => {
        try {
          peak = Math.max(peak, rss())
        } catch {
          // The process is gone; keep the peak seen so far.
        }
      }, 100)
      return () => {
        clearInterval(timer)
        return peak
      }
    },
    async stop() {
      if (child.exitCode !== null) return
      const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()))
      child.disconnect()
      const timer = setTimeout(() => child.kill('SIGKILL'), 30_000)
      await exited
      clearTimeout(timer)
    },
  }
  // What a deployed server has done long before anyone measures it: the tile store filled for its data.
  if (opts.startupWork !== false) await server.call({ cmd: 'startup-work' })
  return server
}
