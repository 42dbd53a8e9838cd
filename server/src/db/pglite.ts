import { mkdirSync } from 'node:fs'
import { PGlite } from '@electric-sql/pglite'
// @electric-sql/pglite-postgis 0.2.8 is built against exactly @electric-sql/pglite 0.5.8 (its peer
// dependency); both are pinned in package.json because any other pair fails to load the extension.
import { postgis } from '@electric-sql/pglite-postgis'
import { pg_trgm } from '@electric-sql/pglite/contrib/pg_trgm'
import { unaccent } from '@electric-sql/pglite/contrib/unaccent'
import { PRIVATE_DIR } from '../security/private-files.ts'
import { DatabaseUnavailableError, type Database, type Queryable } from './database.ts'
import { claimEmbeddedDatabase } from './owner-lock.ts'

/**
 * Embedded PostgreSQL + PostGIS. PGlite is a single connection: its own queue serialises queries,
 * and `transaction` holds it exclusively, so callers never interleave statements inside a transaction.
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
    query: base.query,
    transaction: (fn) => {
      guard()
      return pg.transaction((tx) => fn(wrap(tx)))
    },
    exec: base.exec,
    ping: async () => {
      guard()
      await pg.query('select 1')
    },
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
