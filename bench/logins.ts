/**
 * `node bench/logins.ts [--logins N] [--concurrency N]`: password logins per second over HTTP against
 * the real server (embedded database, or PostgreSQL with DATABASE_URL), and the scrypt cost behind
 * them at the old (N=2^15) and current (N=2^17, r=8, p=1) parameters, hashed on libuv's pool as the
 * server does. Each login comes from its own address and each account logs in at most 8 times, so
 * the per-address and per-e-mail login limits are never met. docs/performance.md keeps the figures.
 */
import { scrypt, randomBytes } from 'node:crypto'
import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { parseArgs } from 'node:util'
import { PASSWORD_PARAMS } from '../server/src/accounts/password.ts'
import { api } from './lib/http-load.ts'
import { startBenchServer } from './lib/server-process.ts'
import { fmt, renderTable } from './lib/table.ts'

const { values: args } = parseArgs({
  options: { logins: { type: 'string', default: '16' }, concurrency: { type: 'string', default: '4' } },
})
const logins = Math.max(4, Math.min(400, Number(args.logins) || 16))
const concurrency = Math.max(1, Math.min(32, Number(args.concurrency) || 4))
const PER_ACCOUNT = 8
const password = 'bench-password-1'
// A fresh /16 per run: the counters of a previous run on a kept PostgreSQL database stay out of the way.
const net = `10.${100 + Math.floor(Math.random() * 100)}.`
const from = (n: number) => ({ 'x-forwarded-for': `${net}${Math.floor(n / 250)}.${(n % 250) + 1}` })

/** Runs `count` jobs with `width` at a time; returns jobs per second. */
async function perSecond(count: number, width: number, job: (i: number) => Promise<void>): Promise<number> {
  let next = 0
  const t0 = performance.now()
  await Promise.all(
    Array.from({ length: width }, async () => {
      while (next < count) await job(next++)
    }),
  )
  return count / ((performance.now() - t0) / 1000)
}

const hash = (N: number) => () =>
  new Promise<void>((resolve, reject) => {
    scrypt('bench-password-1', randomBytes(16), 32, { N, r: 8, p: 1, maxmem: 256 * 1024 * 1024 }, (err) =>
      err ? reject(err) : resolve(),
    )
  })

const dataDir = mkdtempSync(join(tmpdir(), 'qh-bench-logins-'))
const server = await startBenchServer({ DATA_DIR: dataDir, DEMO_DATA: 'false' })
try {
  const accounts = Math.ceil(logins / PER_ACCOUNT)
  const stamp = Date.now().toString(36)
  const emails = Array.from({ length: accounts }, (_, i) => `login-${stamp}-${i}@bench.invalid`)
  for (const [i, email] of emails.entries()) {
    const reg = await api(
      server.url,
      'POST',
      '/api/auth/register',
      { name: `Bench ${i}`, email, password },
      undefined,
      from(10_000 + i),
    )
    if (reg.status !== 201) throw new Error(`register answered ${reg.status}: ${reg.body.message}`)
  }
  const httpRate = await perSecond(logins, concurrency, async (i) => {
    const res = await api(
      server.url,
      'POST',
      '/api/auth/login',
      { email: emails[i % accounts], password },
      undefined,
      from(i),
    )
    if (res.status !== 200) throw new Error(`login answered ${res.status}: ${res.body.message}`)
  })
  const rows: string[][] = []
  for (const N of [2 ** 15, PASSWORD_PARAMS.N]) {
    const rate = await perSecond(Math.max(8, concurrency * 2), concurrency, hash(N))
    rows.push([
      `scrypt N=2^${Math.log2(N)}, r=8, p=1${N === PASSWORD_PARAMS.N ? ' (now)' : ' (before)'}`,
      fmt.n(rate, 1),
      fmt.ms((1000 / rate) * concurrency),
    ])
  }
  rows.push([
    `POST /api/auth/login over HTTP (${server.kind}, N=2^${Math.log2(PASSWORD_PARAMS.N)})`,
    fmt.n(httpRate, 1),
    fmt.ms((1000 / httpRate) * concurrency),
  ])
  process.stdout.write(
    `${renderTable({
      title: `Logins: ${logins} logins, ${concurrency} at a time`,
      head: ['what', 'per second', 'ms each'],
      rows,
      notes: ['Hashes run on libuv’s thread pool (4 threads by default); the event loop keeps serving meanwhile.'],
    })}\n`,
  )
} finally {
  await server.stop()
  rmSync(dataDir, { recursive: true, force: true })
}
