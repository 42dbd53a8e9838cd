import { createServer, connect, type Server, type Socket } from 'node:net'
import { afterAll, describe, expect, it } from 'vitest'
import { openPostgres } from './postgres.ts'
import { createTestApp } from '../testing/test-app.ts'

const url = process.env.DATABASE_URL

/** A TCP proxy in front of PostgreSQL that can drop every connection and refuse new ones. */
async function cuttableProxy(target: URL) {
  const sockets = new Set<Socket>()
  let server: Server | undefined
  let port = 0
  const listen = () =>
    new Promise<void>((resolve) => {
      server = createServer((client) => {
        const upstream = connect(Number(target.port || 5432), target.hostname)
        for (const s of [client, upstream]) {
          sockets.add(s)
          s.on('close', () => sockets.delete(s))
          s.on('error', () => s.destroy())
        }
        client.pipe(upstream).pipe(client)
      })
      server.listen(port, '127.0.0.1', () => {
        const a = server!.address()
        port = typeof a === 'object' && a ? a.port : 0
        resolve()
      })
    })
  await listen()
  return {
    get port() {
      return port
    },
    async cut() {
      const closed = new Promise<void>((resolve) => server!.close(() => resolve()))
      for (const s of sockets) s.destroy()
      await closed
    },
    restore: listen,
  }
}

describe.skipIf(!url)('PostgreSQL connection loss', () => {
  const closers: (() => Promise<void>)[] = []
  afterAll(async () => {
    for (const c of closers) await c()
  })

  it('answers 503 while PostgreSQL is unreachable and 200 again once it is back', async () => {
    const target = new URL(url!)
    const proxy = await cuttableProxy(target)
    const viaProxy = new URL(url!)
    viaProxy.hostname = '127.0.0.1'
    viaProxy.port = String(proxy.port)
    const db = await openPostgres(viaProxy.toString())
    closers.push(() => db.close())
    const t = await createTestApp({}, db)

    expect((await t.request('/api/health')).status).toBe(200)
    await proxy.cut()
    const down = await t.request('/api/health')
    expect(down.status).toBe(503)
    expect(down.body.meta.code).toBe('ServiceUnavailable')
    await proxy.restore()
    expect((await t.request('/api/health')).status).toBe(200)
    await proxy.cut()
  })
})

describe.skipIf(!url)('PostgreSQL plans', () => {
  it('plans a statement asked to be generic once per connection, and the others with their values again', async () => {
    const db = await openPostgres(url as string)
    try {
      const plans = (name: string) =>
        db.query<{ generic_plans: number; custom_plans: number }>(
          'select generic_plans::int, custom_plans::int from pg_prepared_statements where name = $1',
          [name],
        )
      // One at a time, so the pool hands out its one idle connection each time.
      for (let i = 0; i < 3; i++) {
        await db.query('select count(*) from pg_class where relpages > $1', [i], {
          prepare: 'generic-one',
          generic: true,
        })
        await db.query('select count(*) from pg_class where relpages > $1', [i], { prepare: 'custom-one' })
      }
      expect(await plans('generic-one')).toEqual([{ generic_plans: 3, custom_plans: 0 }])
      expect(await plans('custom-one')).toEqual([{ generic_plans: 0, custom_plans: 3 }])
      // A transaction on that connection plans as PostgreSQL chooses, whatever ran before it.
      await db.query('select 1 where $1::int > 0', [1], { prepare: 'generic-two', generic: true })
      const mode = await db.transaction((tx) =>
        tx.query<{ mode: string }>('select current_setting($1) as mode', ['plan_cache_mode']),
      )
      expect(mode).toEqual([{ mode: 'auto' }])
    } finally {
      await db.close()
    }
  })
})
