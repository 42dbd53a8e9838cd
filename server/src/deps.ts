import type { Config } from './config.ts'
import type { Database } from './db/index.ts'
import type { Logger } from './logger.ts'
import type { Mailer } from './mail/mailer.ts'

/** Everything a route group needs, passed in so tests can build the app on any database. */
export type Deps = {
  config: Config
  db: Database
  logger: Logger
  mailer: Mailer
  /** Current time; tests move it to check expiry and the daily reset. */
  now: () => Date
}

export type AppEnv = { Variables: { requestId: string; userId?: string } }
