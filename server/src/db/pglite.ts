import { mkdirSync } from 'node:fs'
import { PGlite } from '@electric-sql/pglite'
// @electric-sql/pglite-postgis 0.2.8 is built against exactly @electric-sql/pglite 0.5.8 (its peer
// dependency); both are pinned in package.json because any other pair fails to load the extension.
import { postgis } from '@electric-sql/pglite-postgis'
import { pg_trgm } from '@electric-sql/pglite/contrib/pg_trgm'
import { unaccent } from '@electric-sql/pglite/contrib/unaccent'
import { PRIVATE_DIR } from '../security/private-files.ts'
import {
  DatabaseUnavailableError,
  StatementCancelledError,
  StatementTimeoutError,
  type Database,
  type Queryable,
} from './database.ts'
import { claimEmbeddedDatabase } from './owner-lock.ts'
import { statementScope } from './statement-scope.ts'

/**
 * Embedded PostgreSQL + PostGIS. PGlite is a single connection: statements take turns (`transaction`
 * holds the connection for its whole callback), so callers never interleave statements inside a
 * transaction.
 *
 * A statement cannot be stopped once it runs: PGlite executes it on this process's one thread, so no
 * timer and no signal runs until it returns, and PostgreSQL's statement_timeout never fires. What can be
 * done is done at its turn: a statement of a request (statement-scope.ts) whose client has gone is not
 * started, nor one that has already waited its whole budget behind others (as PostgreSQL cancels a
 * statement that spends its statement_timeout waiting for a lock), so one slow statement costs its own
 * time and not that of everything queued behind it. Keeping each statement's work bounded (boxes, vertex
 * budgets) is up to the callers.
 */
export async function openPglite(dir: string | undefined): Promise<Database> {
  if (dir) mkdirSync(dir, { recursive: true, mode: PRIVATE_DIR })
  const owner = dir ? claimEmbeddedDatabase(dir) : null
  let pg: PGlite
  try {
    pg = await PGlite.create(dir ?? 'memory://', { extensions: { postgis, pg_trgm, unaccent } })
  } catch (err) {
    owner?.release()
    throw err
  }
  let closed = false
  const guard = () => {
    if (closed) throw new DatabaseUnavailableError('PGlite is closed')
  }
  // The statements' turns, in the order they were issued (PGlite's own queue would hide how long each waited).
  let tail: Promise<unknown> = Promise.resolve()
  const inTurn = <T>(work: () => Promise<T>): Promise<T> => {
    const scope = statementScope()
    const queuedAt = performance.now()
    const start = () => {
      guard()
      if (scope?.signal.aborted) throw new StatementCancelledError('the client of this request went away')
      if (scope && performance.now() - queuedAt > scope.budgetMs)
        throw new StatementTimeoutError(`waited over ${scope.budgetMs} ms for the embedded database`)
      return work()
    }
    const done = tail.then(start)
    tail = done.catch(() => {})
    return done
  }
  const wrap = (q: Pick<PGlite, 'query' | 'exec'>): Queryable => ({
    async query<T>(sql: string, params?: unknown[]) {
      guard()
      const res = await q.query<T>(sql, params as unknown[] | undefined)
      return res.rows
    },
    async exec(sql: string) {
      guard()
      await q.exec(sql)
    },
  })
  const base = wrap(pg)
  return {
    kind: 'pglite',
    query: (sql, params) => inTurn(() => base.query(sql, params)),
    // Inside, the transaction holds the connection: its statements go straight to it.
    transaction: (fn) => inTurn(() => pg.transaction((tx) => fn(wrap(tx)))),
    exec: (sql) => inTurn(() => base.exec(sql)),
    ping: () => inTurn(() => pg.query('select 1').then(() => undefined)),
    // One connection in one process: whatever is announced was sent by this process, which acts on it
    // itself, so there is nothing to hear. PGlite's own LISTEN is not used: with a channel listened to,
    // its backend stopped answering once 20 requests came in at once (found by the bench).
    listen: async () => {
      guard()
    },
    close: async () => {
      if (closed) return
      closed = true
      try {
        await pg.close()
      } finally {
        owner?.release()
      }
    },
  }
}
