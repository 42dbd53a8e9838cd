import { createConnection, createServer, type Server, type Socket } from 'node:net'
import { afterAll, describe, expect, it } from 'vitest'
import { freePort, removeTempDirs, runNode, startServer, tempDir } from './process.ts'

// The database down mid-request (503, then recovery) is tested in server/src/db/postgres.test.ts.
const pgUrl = process.env.TEST_DATABASE_URL || undefined
const cleanup: (() => Promise<void> | void)[] = []
afterAll(async () => {
  for (const fn of cleanup.reverse()) await fn()
  removeTempDirs()
})

describe('database down at start', () => {
  it('retries an unreachable PostgreSQL with a log line per try, then exits 1 with one clear line', async () => {
    const closed = await freePort()
    const proc = runNode('server/src/main.ts', [], {
      PORT: String(await freePort()),
      HOST: '127.0.0.1',
      DATA_DIR: tempDir('qh-fault-'),
      DATABASE_URL: `postgres://qh:mat-khau-db@127.0.0.1:${closed}/qh`,
      DB_START_TIMEOUT_SECONDS: '2',
      LOG_LEVEL: 'info',
    })
    expect(await proc.exited).toBe(1)
    const lines = proc.output().trim().split('\n')
    const retries = lines.filter((l) => l.includes('database not reachable, retrying'))
    expect(retries.length).toBeGreaterThanOrEqual(2)
    expect(JSON.parse(retries[0]!)).toMatchObject({
      level: 'warn',
      attempt: 1,
      database: `postgres://qh:***@127.0.0.1:${closed}/qh`,
    })
    const last = lines.at(-1)!
    expect(last).toMatch(
      new RegExp(
        `^Cannot open the database \\(postgres://qh:\\*\\*\\*@127\\.0\\.0\\.1:${closed}/qh\\) after \\d+ tries in 2 s: .*ECONNREFUSED`,
      ),
    )
    // The password never reaches the output.
    expect(proc.output()).not.toContain('mat-khau-db')
  })

  it('refuses at once, without retrying, what retrying cannot fix (a bad DATABASE_URL)', async () => {
    const proc = runNode('server/src/main.ts', [], {
      DATA_DIR: tempDir('qh-fault-'),
      DATABASE_URL: 'mysql://localhost/x',
      LOG_LEVEL: 'info',
    })
    expect(await proc.exited).toBe(2)
    expect(proc.output().trim()).toMatch(
      /^Invalid DATABASE_URL="mysql:\/\/localhost\/x": must be a URL starting with postgres:/,
    )
  })

  it.skipIf(!pgUrl)('starts as soon as PostgreSQL comes up while it is retrying', async () => {
    // A loopback port that refuses connections until a proxy to the real PostgreSQL opens on it.
    const target = new URL(pgUrl!)
    const port = await freePort()
    const url = new URL(pgUrl!)
    url.port = String(port)
    url.hostname = '127.0.0.1'
    const sockets = new Set<Socket>()
    let proxy: Server | undefined
    cleanup.push(() => {
      sockets.forEach((s) => s.destroy())
      proxy?.close()
    })
    const opening = new Promise<void>((resolveOpen) =>
      setTimeout(() => {
        proxy = createServer((client) => {
          const upstream = createConnection({ host: target.hostname, port: Number(target.port || 5432) })
          for (const s of [client, upstream]) {
            sockets.add(s)
            s.on('error', () => {})
            s.on('close', () => sockets.delete(s))
          }
          client.pipe(upstream).pipe(client)
        }).listen(port, '127.0.0.1', () => resolveOpen())
      }, 3_000),
    )
    const server = startServer({
      dataDir: tempDir('qh-fault-'),
      env: { DATABASE_URL: url.toString(), DB_START_TIMEOUT_SECONDS: '60', DEMO_DATA: 'false', LOG_LEVEL: 'info' },
    })
    await opening
    const running = await server
    cleanup.push(() => running.stop())
    expect(running.output()).toContain('database not reachable, retrying')
    const health = await fetch(`${running.url}/api/health`).then((r) => r.json())
    expect(health.data).toMatchObject({ status: 'ok', db: 'ok' })
  })
})
