import { readdirSync, readFileSync } from 'node:fs'
import { join } from 'node:path'
import type { Database } from './database.ts'

const dir = join(import.meta.dirname, 'migrations')

export type Migration = { version: string; sql: string }

export function listMigrations(from = dir): Migration[] {
  return readdirSync(from)
    .filter((f) => /^\d{3}_[a-z0-9_]+\.sql$/.test(f))
    .sort()
    .map((f) => ({ version: f.replace(/\.sql$/, ''), sql: readFileSync(join(from, f), 'utf8') }))
}

/**
 * Applies pending migrations, each in its own transaction together with its record, so a failing
 * one leaves the database as it was. An advisory lock keeps two starting servers from racing.
 */
export async function migrate(db: Database, migrations: Migration[] = listMigrations()): Promise<string[]> {
  await db.exec(
    `create table if not exists schema_migrations (version text primary key, applied_at timestamptz not null default now())`,
  )
  const applied: string[] = []
  for (const m of migrations) {
    const done = await db.transaction(async (tx) => {
      await tx.query('select pg_advisory_xact_lock(7201001)')
      const rows = await tx.query('select 1 from schema_migrations where version = $1', [m.version])
      if (rows.length > 0) return false
      await tx.exec(m.sql)
      await tx.query('insert into schema_migrations (version) values ($1)', [m.version])
      return true
    })
    if (done) applied.push(m.version)
  }
  return applied
}
