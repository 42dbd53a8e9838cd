import { serve, type ServerType } from '@hono/node-server'
import { createApp } from './app.ts'
import type { Config } from './config.ts'
import { openDatabase, type Database } from './db/index.ts'
import { migrate } from './db/migrate.ts'
import { createLogger, type Logger } from './logger.ts'
import { createMailer } from './mail/mailer.ts'
import { ensureDemoData } from './seed/ensure.ts'

export type RunningServer = { url: string; port: number; db: Database; logger: Logger; close(): Promise<void> }

/** Opens the database, migrates, loads demo data when empty, and listens. */
export async function startServer(config: Config): Promise<RunningServer> {
  const logger = createLogger(config.logLevel)
  const t0 = performance.now()
  const db = await openDatabase(config)
  const applied = await migrate(db)
  if (applied.length > 0) logger.info('migrations applied', { applied })
  if (config.demoData) await ensureDemoData(db, logger)
  const app = createApp({ config, db, logger, mailer: createMailer(config, logger), now: () => new Date() })
  const server: ServerType = await new Promise((resolve) => {
    const s = serve({ fetch: app.fetch, port: config.port, hostname: config.host }, () => resolve(s))
  })
  // Slow or stalled clients must not hold sockets forever.
  if ('headersTimeout' in server) {
    server.headersTimeout = 15_000
    server.requestTimeout = 120_000
    server.keepAliveTimeout = 5_000
  }
  const address = server.address()
  const port = typeof address === 'object' && address ? address.port : config.port
  const url = `http://localhost:${port}`
  logger.info('ready', { url, ms: Math.round(performance.now() - t0), db: db.kind })
  return {
    url,
    port,
    db,
    logger,
    close: async () => {
      await new Promise<void>((resolve) => server.close(() => resolve()))
      await db.close()
    },
  }
}
