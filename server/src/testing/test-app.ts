import { createApp } from '../app.ts'
import { loadConfig, type Config } from '../config.ts'
import type { Database, Queryable } from '../db/index.ts'
import { openPglite } from '../db/pglite.ts'
import { openPostgres } from '../db/postgres.ts'
import { migrate } from '../db/migrate.ts'
import { createLogger, type Logger } from '../logger.ts'
import { tempDirUntilExit } from './temp-dirs.ts'
import type { Mail, Mailer } from '../mail/mailer.ts'

let shared: Promise<Database> | undefined

/**
 * The one database the server tests share: PostgreSQL when DATABASE_URL is set (CI runs the suite
 * on both), otherwise an in-memory PGlite. Opened and migrated once per test run.
 */
export function testDb(): Promise<Database> {
  shared ??= (async () => {
    const url = process.env.DATABASE_URL
    const db = url ? await openPostgres(url) : await openPglite(undefined)
    await migrate(db)
    return db
  })()
  return shared
}

export type TestApp = {
  app: ReturnType<typeof createApp>
  db: Database
  config: Config
  mails: Mail[]
  logs: string[]
  logger: Logger
  clock: { now: Date }
  request(
    path: string,
    init?: RequestInit & { json?: unknown; token?: string },
  ): Promise<{ status: number; headers: Headers; body: any }>
}

/**
 * Builds the real app over the shared test database (or `dbOverride`, with search and tiles reading `reads` when
 * given, as from a replica), with mail and time under the test's control.
 */
export async function createTestApp(
  env: Record<string, string> = {},
  dbOverride?: Database,
  reads?: Queryable,
): Promise<TestApp> {
  const db = dbOverride ?? (await testDb())
  const dataDir = tempDirUntilExit('qh-test-')
  // Requests built with app.request have no socket and share one address, so the per-address
  // registration limit is lifted unless a test sets it; its own tests do.
  const config = loadConfig({ DATA_DIR: dataDir, LOG_LEVEL: 'debug', REGISTRATIONS_PER_HOUR: '1000000', ...env })
  const mails: Mail[] = []
  const logs: string[] = []
  const logger = createLogger(config.logLevel, (l) => logs.push(l))
  const mailer: Mailer = { send: async (m) => void mails.push(m) }
  const clock = { now: new Date() }
  const app = createApp({ config, db, reads, logger, mailer, now: () => clock.now })
  return {
    app,
    db,
    config,
    mails,
    logs,
    logger,
    clock,
    async request(path, init = {}) {
      const headers = new Headers(init.headers)
      let body = init.body
      if (init.json !== undefined) {
        headers.set('content-type', 'application/json')
        body = JSON.stringify(init.json)
      }
      if (init.token) headers.set('authorization', `Bearer ${init.token}`)
      const res = await app.request(path, { ...init, headers, body })
      const text = await res.text()
      let parsed: unknown = text
      try {
        parsed = text ? JSON.parse(text) : null
      } catch {}
      return { status: res.status, headers: res.headers, body: parsed }
    },
  }
}

/** A unique e-mail per call, so tests sharing one database never collide. */
export function uniqueEmail(prefix = 'user'): string {
  return `${prefix}.${Date.now().toString(36)}${Math.random().toString(36).slice(2, 8)}@example.vn`
}
