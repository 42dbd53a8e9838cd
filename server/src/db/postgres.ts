import pg from 'pg'
import { StatementCancelledError, type Database, type Queryable, type QueryOptions } from './database.ts'
import { statementScope } from './statement-scope.ts'

// int8 (counts, sums) as JS numbers, as PGlite gives them: our counts stay far below 2^53.
pg.types.setTypeParser(20, (v) => Number(v))
// numeric as numbers, as PGlite gives them.
pg.types.setTypeParser(1700, (v) => Number(v))

/**
 * `statementTimeoutMs`: PostgreSQL's statement_timeout on every connection of the pool (the server sets
 * STATEMENT_TIMEOUT_SECONDS; command-line tools, whose imports may run long statements, set none). A
 * statement of a request (statement-scope.ts) whose client goes away is cancelled in PostgreSQL at once.
 */
export async function openPostgres(url: string, opts: { statementTimeoutMs?: number } = {}): Promise<Database> {
  const pool = new pg.Pool({
    connectionString: url,
    max: 10,
    connectionTimeoutMillis: 5000,
    idleTimeoutMillis: 30_000,
    ...(opts.statementTimeoutMs ? { statement_timeout: Math.ceil(opts.statementTimeoutMs) } : {}),
  })
  // An idle client losing its connection must not crash the process; the next query reconnects.
  pool.on('error', () => {})

  /** Asks PostgreSQL, over a connection of its own (the pool may be full), to cancel what `pid` runs. */
  const cancelBackend = async (pid: number) => {
    const c = new pg.Client({ connectionString: url, connectionTimeoutMillis: 5000 })
    c.on('error', () => {})
    try {
      await c.connect()
      await c.query('select pg_cancel_backend($1)', [pid])
    } catch {
      // Unreachable now: the statement ends with its timeout instead.
    } finally {
      await c.end().catch(() => {})
    }
  }

  /**
   * The connections whose session plans statements generically (`plan_cache_mode`, which holds for every
   * statement with parameters, unnamed ones too: so it is reset before any other). Switched only when a
   * statement wants the other mode, so a connection serving the same statement again and again pays no extra
   * round trip; never inside a transaction, where a rollback would undo the switch unseen.
   */
  const generic = new WeakSet<pg.PoolClient>()
  const planMode = async (c: pg.PoolClient, wantGeneric: boolean) => {
    if (generic.has(c) === wantGeneric) return
    await c.query(wantGeneric ? 'set plan_cache_mode = force_generic_plan' : 'reset plan_cache_mode')
    if (wantGeneric) generic.add(c)
    else generic.delete(c)
  }

  /**
   * One connection's statements, each cancelled in PostgreSQL if the request's client goes away while it
   * runs. `spoilt` is set once a cancel was sent: such a connection is closed, not reused, so a cancel
   * arriving late can never stop the next statement on it.
   */
  const onConnection = (c: pg.PoolClient, spoilt: { value: boolean }, inTransaction = false): Queryable => {
    const run = async <T>(send: () => Promise<pg.QueryResult>): Promise<T[]> => {
      const scope = statementScope()
      if (!scope) return (await send()).rows as T[]
      if (scope.signal.aborted) throw new StatementCancelledError('the client of this request went away')
      const onAbort = () => {
        spoilt.value = true
        void cancelBackend((c as unknown as { processID: number }).processID)
      }
      scope.signal.addEventListener('abort', onAbort, { once: true })
      try {
        return (await send()).rows as T[]
      } finally {
        scope.signal.removeEventListener('abort', onAbort)
      }
    }
    return {
      query: async <T>(sql: string, params?: unknown[], o?: QueryOptions) => {
        if (!inTransaction) await planMode(c, Boolean(o?.prepare && o.generic))
        return run<T>(() =>
          o?.prepare ? c.query({ name: o.prepare, text: sql, values: params }) : c.query(sql, params),
        )
      },
      exec: async (sql: string) => {
        if (!inTransaction) await planMode(c, false)
        await run(() => c.query(sql))
      },
    }
  }

  /**
   * A connection of the pool for `fn`, given back after it (closed when spoilt). While it is out of the
   * pool a lost connection is this caller's: its error fails the statement, and must not crash the process.
   */
  const withConnection = async <R>(fn: (c: pg.PoolClient, spoilt: { value: boolean }) => Promise<R>): Promise<R> => {
    if (statementScope()?.signal.aborted) throw new StatementCancelledError('the client of this request went away')
    const client = await pool.connect()
    const spoilt = { value: false }
    const lost = () => (spoilt.value = true)
    client.on('error', lost)
    try {
      return await fn(client, spoilt)
    } finally {
      client.off('error', lost)
      client.release(spoilt.value)
    }
  }

  /** A statement outside a transaction: on a connection of its own for as long as it runs. */
  const onPool =
    <A extends unknown[], R>(fn: (q: Queryable, ...args: A) => Promise<R>) =>
    (...args: A): Promise<R> =>
      withConnection((c, spoilt) => fn(onConnection(c, spoilt), ...args))

  const listeners = new Set<{ stop(): Promise<void> }>()
  return {
    kind: 'postgres',
    query: onPool((q, sql: string, params?: unknown[], o?: QueryOptions) => q.query(sql, params, o)),
    transaction: (fn) =>
      withConnection(async (client, spoilt) => {
        try {
          await planMode(client, false)
          await client.query('begin')
          const out = await fn(onConnection(client, spoilt, true))
          await client.query('commit')
          return out
        } catch (err) {
          await client.query('rollback').catch(() => {})
          throw err
        }
      }),
    exec: onPool((q, sql: string) => q.exec(sql)),
    ping: onPool((q) => q.query('select 1').then(() => undefined)),
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
