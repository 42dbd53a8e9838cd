import type { Config } from './config.ts'
import type { Database, Queryable } from './db/index.ts'
import type { Logger } from './logger.ts'
import type { Mailer } from './mail/mailer.ts'

/** Everything a route group needs, passed in so tests can build the app on any database. */
export type Deps = {
  config: Config
  db: Database
  /**
   * Where reads that need not see a write at once go (search, map tiles): a streaming replica when
   * DATABASE_READ_URL is set; `db` otherwise. Counted lookups read and count in one statement, so they stay on `db`.
   */
  reads?: Queryable
  logger: Logger
  mailer: Mailer
  /** Current time; tests move it to check expiry and the daily reset. */
  now: () => Date
}

export type AppEnv = { Variables: { requestId: string; userId?: string } }

/** The database the reads of search and tiles go to (Deps.reads). */
export const readsOf = (deps: Pick<Deps, 'db' | 'reads'>): Queryable => deps.reads ?? deps.db
