import pg from 'pg'
import type { Database, Queryable, QueryOptions } from './database.ts'

// int8 (counts, sums) as JS numbers, as PGlite gives them: our counts stay far below 2^53.
pg.types.setTypeParser(20, (v) => Number(v))
// numeric as numbers, as PGlite gives them.
pg.types.setTypeParser(1700, (v) => Number(v))

export async function openPostgres(url: string): Promise<Database> {
  const pool = new pg.Pool({ connectionString: url, max: 10, connectionTimeoutMillis: 5000, idleTimeoutMillis: 30_000 })
  // An idle client losing its connection must not crash the process; the next query reconnects.
  pool.on('error', () => {})
  const wrap = (c: { query: pg.Pool['query'] }): Queryable => ({
    async query<T>(sql: string, params?: unknown[], opts?: QueryOptions) {
      const res = opts?.prepare
        ? await c.query({ name: opts.prepare, text: sql, values: params })
        : await c.query(sql, params)
      return res.rows as T[]
    },
    async exec(sql: string) {
      await c.query(sql)
    },
  })
  const base = wrap(pool)
  const listeners = new Set<{ stop(): Promise<void> }>()
  return {
    kind: 'postgres',
    query: base.query,
    async transaction(fn) {
      const client = await pool.connect()
      try {
        await client.query('begin')
        const out = await fn(wrap(client))
        await client.query('commit')
        return out
      } catch (err) {
        await client.query('rollback').catch(() => {})
        throw err
      } finally {
        client.release()
      }
    },
    exec: base.exec,
    async ping() {
      await pool.query('select 1')
    },
    async listen(channel, onMessage, onLive) {
      if (!/^[a-z_][a-z0-9_]*$/.test(channel)) throw new Error(`not a plain channel name: ${channel}`)
      let stopped = false
      let client: pg.Client | undefined
      let timer: ReturnType<typeof setTimeout> | undefined
      // A connection of its own, outside the pool: LISTEN belongs to one session for as long as it lives.
      const connect = async () => {
        const c = new pg.Client({ connectionString: url, connectionTimeoutMillis: 5000 })
        c.on('notification', (n) => {
          if (n.channel === channel) onMessage(n.payload ?? '')
        })
        c.on('error', () => {})
        try {
          await c.connect()
          await c.query(`listen ${channel}`)
        } catch (err) {
          await c.end().catch(() => {})
          throw err
        }
        c.on('end', () => {
          if (stopped) return
          onLive(false)
          retry(500)
        })
        client = c
      }
      const retry = (ms: number) => {
        timer = setTimeout(() => {
          connect().then(
            () => onLive(true),
            () => retry(Math.min(ms * 2, 5000)),
          )
        }, ms)
      }
      await connect()
      listeners.add({
        async stop() {
          stopped = true
          clearTimeout(timer)
          await client?.end().catch(() => {})
        },
      })
    },
    async close() {
      for (const l of listeners) await l.stop()
      listeners.clear()
      await pool.end()
    },
  }
}
