import { createApp } from './app.ts'
import { listen } from './http/listen.ts'
import { createTraffic } from './http/traffic.ts'
import type { Config } from './config.ts'
import { isUnavailable } from './db/database.ts'
import { openDatabase, type Database } from './db/index.ts'
import { migrate } from './db/migrate.ts'
import { createLogger, type Logger } from './logger.ts'
import { createMailer } from './mail/mailer.ts'
import { ensureBoundaries } from './places/boundaries.ts'
import { ensureDemoData } from './seed/ensure.ts'
import { startTileStoreFill } from './tiles/store-fill.ts'
import { watchDataVersion } from './tiles/version.ts'

/** The database could not be opened at start, after retrying for DB_START_TIMEOUT_SECONDS when it was unreachable. */
export class DatabaseStartError extends Error {
  override name = 'DatabaseStartError'
}

/** postgres://user:secret@host/db → postgres://user:***@host/db, for messages. */
function redactUrl(url: string): string {
  return url.replace(/(\/\/[^:/@]*:)[^@]*@/, '$1***@')
}

/**
 * A database that is still starting (a container, a fail-over) must not kill the server at once:
 * an unreachable one is retried with growing pauses until DB_START_TIMEOUT_SECONDS, each try logged.
 * Anything else (wrong password, corrupt data directory) fails at once.
 */
async function openDatabaseWithRetry(config: Config, logger: Logger): Promise<Database> {
  const where = config.databaseUrl ? redactUrl(config.databaseUrl) : 'PGlite'
  const deadline = Date.now() + config.dbStartTimeoutSeconds * 1000
  for (let attempt = 1; ; attempt++) {
    let db: Database | undefined
    try {
      db = await openDatabase(config, { statementTimeoutMs: config.statementTimeoutMs })
      await db.ping()
      return db
    } catch (err) {
      await db?.close().catch(() => {})
      // A refused connection to "localhost" is an AggregateError (IPv4 and IPv6) with no message.
      const code = (err as { code?: unknown }).code
      const reason = err instanceof Error ? err.message || (typeof code === 'string' ? code : err.name) : String(err)
      const left = deadline - Date.now()
      if (!isUnavailable(err) || left <= 0) {
        const tries = attempt > 1 ? ` after ${attempt} tries in ${config.dbStartTimeoutSeconds} s` : ''
        throw new DatabaseStartError(`Cannot open the database (${where})${tries}: ${reason}`)
      }
      const waitMs = Math.min(500 * 2 ** (attempt - 1), 5_000, left)
      logger.warn('database not reachable, retrying', { database: where, attempt, retryInMs: waitMs, error: reason })
      await new Promise((r) => setTimeout(r, waitMs))
    }
  }
}

export type RunningServer = {
  url: string
  port: number
  db: Database
  logger: Logger
  /** Settles when what start-up leaves to the background (the tile store's fill) has ended. */
  startupWork: Promise<void>
  close(): Promise<void>
}

/** Opens the database, migrates, loads demo data when empty and the national boundaries once, and listens. */
export async function startServer(config: Config): Promise<RunningServer> {
  const logger = createLogger(config.logLevel)
  const t0 = performance.now()
  const db = await openDatabaseWithRetry(config, logger)
  const applied = await migrate(db)
  if (applied.length > 0) logger.info('migrations applied', { applied })
  if (config.demoData) await ensureDemoData(db, logger)
  await ensureBoundaries(db, logger)
  await watchDataVersion({ db, logger })
  // Search and map tiles read from a streaming replica when there is one (DATABASE_READ_URL).
  const reads = config.databaseReadUrl
    ? await openDatabaseWithRetry({ ...config, databaseUrl: config.databaseReadUrl }, logger)
    : undefined
  const app = createApp({ config, db, reads, logger, mailer: createMailer(config, logger), now: () => new Date() })
  // Slow or stalled clients must not hold sockets forever: headers within 15 s, the whole request
  // (an upload of photos included) within REQUEST_TIMEOUT_SECONDS, idle keep-alive sockets closed
  // after 5 s. Node checks these only every connectionsCheckingInterval, so that is kept short.
  const requestTimeout = config.requestTimeoutSeconds * 1000
  const serverOptions = {
    headersTimeout: Math.min(15_000, requestTimeout),
    requestTimeout,
    keepAliveTimeout: 5_000,
    connectionsCheckingInterval: Math.min(5_000, requestTimeout),
  }
  // The requests in flight, which the tile store's filler gives way to.
  const traffic = createTraffic()
  const { port, close } = await listen(app.fetch, {
    port: config.port,
    hostname: config.host,
    serverOptions,
    config,
    traffic,
  })
  const url = `http://localhost:${port}`
  logger.info('ready', { url, ms: Math.round(performance.now() - t0), db: db.kind })
  // What start-up leaves to the background: the tile store filled for the data loaded (tiles/store-fill.ts).
  const filler = config.tileStore ? startTileStoreFill({ db, logger, traffic }) : undefined
  const startupWork = (filler?.started ?? Promise.resolve()).then(() =>
    logger.info('start-up work done', { ms: Math.round(performance.now() - t0) }),
  )
  return {
    url,
    port,
    db,
    logger,
    startupWork,
    close: async () => {
      await close()
      await filler?.stop()
      await reads?.close()
      await db.close()
    },
  }
}
