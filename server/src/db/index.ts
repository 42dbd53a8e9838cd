import { join } from 'node:path'
import type { Config } from '../config.ts'
import type { Database } from './database.ts'
import { openPglite } from './pglite.ts'
import { openPostgres } from './postgres.ts'

export type { Database, Queryable } from './database.ts'

/**
 * PostgreSQL when DATABASE_URL is set, otherwise the embedded PGlite under DATA_DIR/pg. With
 * `statementTimeoutMs` (the server's, never the command-line tools') PostgreSQL stops every statement past
 * it; the embedded database keeps its budget per request (statement-scope.ts).
 */
export function openDatabase(
  config: Pick<Config, 'databaseUrl' | 'dataDir'>,
  opts: { statementTimeoutMs?: number } = {},
): Promise<Database> {
  return config.databaseUrl ? openPostgres(config.databaseUrl, opts) : openPglite(join(config.dataDir, 'pg'))
}
