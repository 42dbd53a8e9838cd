import { readdirSync, readFileSync } from 'node:fs'
import { join } from 'node:path'
import { landUseCodes } from '#core/planning/land-use.ts'
import type { Database, Queryable } from './database.ts'

const dir = join(import.meta.dirname, 'migrations')

export type Migration = { version: string; sql: string }

/**
 * Versions a database may have recorded under an earlier name. Three migrations once shared 009 and
 * three 010; they were renumbered (same order, same SQL) so every number is unique. A database migrated
 * before keeps its history: the old names are rewritten to the new ones before anything runs, so no
 * migration runs twice. Never edit a migration that has landed; add a new one, and add a line here only
 * if a file must ever be renamed again.
 */
export const RENAMED_VERSIONS: Readonly<Record<string, string>> = {
  '009_search_keys': '010_search_keys',
  '009_upload_objects': '011_upload_objects',
  '010_osm_basemap': '012_osm_basemap',
  '010_parcel_places': '013_parcel_places',
  '010_search_ward': '014_search_ward',
  '011_area_datasets': '015_area_datasets',
  '012_street_names': '016_street_names',
}

/** The migration files in order; two files with the same number are refused, since their order would be a guess. */
export function listMigrations(from = dir): Migration[] {
  const files = readdirSync(from)
    .filter((f) => /^\d{3}_[a-z0-9_]+\.sql$/.test(f))
    .sort()
  const byNumber = new Map<string, string>()
  for (const f of files) {
    const n = f.slice(0, 3)
    const other = byNumber.get(n)
    if (other)
      throw new Error(
        `two migrations share the number ${n}: ${other} and ${f}; give the newer one the next free number`,
      )
    byNumber.set(n, f)
  }
  return files.map((f) => ({ version: f.replace(/\.sql$/, ''), sql: readFileSync(join(from, f), 'utf8') }))
}

/**
 * Applies pending migrations, each in its own transaction together with its record, so a failing
 * one leaves the database as it was. An advisory lock keeps two starting servers from racing.
 */
export async function migrate(db: Database, migrations: Migration[] = listMigrations()): Promise<string[]> {
  await db.exec(
    `create table if not exists schema_migrations (version text primary key, applied_at timestamptz not null default now())`,
  )
  // Every command opens the database this way (an import, a seed, each server): when nothing is
  // pending, one read says so and no lock or transaction is taken.
  const recorded = new Set(
    (await db.query<{ version: string }>('select version from schema_migrations')).map((r) => r.version),
  )
  const current =
    migrations.every((m) => recorded.has(m.version)) && Object.keys(RENAMED_VERSIONS).every((v) => !recorded.has(v))
  if (current) {
    await syncLandUseCodes(db)
    return []
  }
  await db.transaction(async (tx) => {
    await tx.query('select pg_advisory_xact_lock(7201001)')
    for (const [from, to] of Object.entries(RENAMED_VERSIONS)) {
      await tx.query(
        `update schema_migrations set version = $2 where version = $1
           and not exists (select 1 from schema_migrations where version = $2)`,
        [from, to],
      )
    }
  })
  const applied: string[] = []
  for (const m of migrations) {
    const done = await db.transaction(async (tx) => {
      // A migration may build an index over millions of rows: the server's statement timeout is for requests.
      await tx.query('set local statement_timeout = 0')
      await tx.query('select pg_advisory_xact_lock(7201001)')
      const rows = await tx.query('select 1 from schema_migrations where version = $1', [m.version])
      if (rows.length > 0) return false
      await tx.exec(m.sql)
      await tx.query('insert into schema_migrations (version) values ($1)', [m.version])
      return true
    })
    if (done) applied.push(m.version)
  }
  await syncLandUseCodes(db)
  return applied
}

/**
 * The land_use_codes table holds core/planning/land-use.ts, the one list of codes, names and colours:
 * lookups, plan comparisons and planning tiles join it in SQL. Brought up to date on every start, so a
 * code added to the list needs no migration; rows already equal are left untouched.
 */
export async function syncLandUseCodes(db: Queryable): Promise<void> {
  const entries = Object.entries(landUseCodes)
  await db.query(
    `insert into land_use_codes (code, name, color)
     select * from unnest($1::text[], $2::text[], $3::text[])
     on conflict (code) do update set name = excluded.name, color = excluded.color
       where (land_use_codes.name, land_use_codes.color) is distinct from (excluded.name, excluded.color)`,
    [entries.map(([c]) => c), entries.map(([, u]) => u.name), entries.map(([, u]) => u.color)],
  )
}
