import { join } from 'node:path'
import type { Config } from '../config.ts'
import type { Database } from './database.ts'
import { openPglite } from './pglite.ts'
import { openPostgres } from './postgres.ts'

export type { Database, Queryable } from './database.ts'

/** PostgreSQL when DATABASE_URL is set, otherwise the embedded PGlite under DATA_DIR/pg. */
export function openDatabase(config: Pick<Config, 'databaseUrl' | 'dataDir'>): Promise<Database> {
  return config.databaseUrl ? openPostgres(config.databaseUrl) : openPglite(join(config.dataDir, 'pg'))
}
