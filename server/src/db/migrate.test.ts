import { mkdtempSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import type { Database } from './database.ts'
import { landUseCodes } from '#core/planning/land-use.ts'
import { testDb } from '../testing/test-app.ts'
import { listMigrations, migrate, RENAMED_VERSIONS, syncLandUseCodes } from './migrate.ts'
import { openPglite } from './pglite.ts'

describe('migrations', () => {
  const dirs: string[] = []
  let shared: Database
  // Opening and migrating the shared database is the slow part; a hook's time is not the test's.
  beforeAll(async () => {
    shared = await testDb()
  }, 300_000)
  afterAll(() => dirs.forEach((d) => rmSync(d, { recursive: true, force: true })))

  it('numbers every migration once, in the order they were written', () => {
    const numbers = listMigrations().map((m) => m.version.slice(0, 3))
    expect(new Set(numbers).size).toBe(numbers.length)
    expect([...numbers].sort()).toEqual(numbers)
  })

  it('holds the land-use list of core/ in land_use_codes, every national code with its name and colour, and puts back a row edited by hand', async () => {
    const db = shared
    const table = async () =>
      Object.fromEntries(
        (
          await db.query<{ code: string; name: string; color: string }>('select code, name, color from land_use_codes')
        ).map((r) => [r.code, { name: r.name, color: r.color }]),
      )
    expect(await table()).toEqual(landUseCodes)
    expect(Object.keys(landUseCodes).length).toBeGreaterThanOrEqual(60)
    await db.query(`update land_use_codes set name = 'TSC', color = '#000000' where code = 'TSC'`)
    await syncLandUseCodes(db)
    expect((await table()).TSC).toEqual({ name: 'Đất xây dựng trụ sở cơ quan', color: landUseCodes.TSC!.color })
  })

  it('refuses a folder where two migrations share a number, naming both', () => {
    const dir = mkdtempSync(join(tmpdir(), 'qh-migrations-'))
    dirs.push(dir)
    writeFileSync(join(dir, '001_a.sql'), 'select 1;')
    writeFileSync(join(dir, '002_b.sql'), 'select 1;')
    writeFileSync(join(dir, '002_c.sql'), 'select 1;')
    expect(() => listMigrations(dir)).toThrow(/002.*002_b\.sql and 002_c\.sql/)
  })

  describe('a database migrated under the earlier numbering (three 009s, three 010s)', () => {
    let db: Database
    afterAll(async () => db?.close())

    it('upgrades to the new numbers without running any migration twice', async () => {
      db = await openPglite(undefined)
      const oldName = Object.fromEntries(Object.entries(RENAMED_VERSIONS).map(([from, to]) => [to, from]))
      // What the earlier code recorded: the same SQL files under their earlier names.
      const earlier = listMigrations()
        .map((m) => ({ ...m, version: oldName[m.version] ?? m.version }))
        .sort((a, b) => a.version.localeCompare(b.version))
      await migrate(db, earlier)
      const before = await db.query<{ version: string }>('select version from schema_migrations order by version')
      expect(before.map((r) => r.version)).toContain('009_search_keys')

      const applied = await migrate(db)
      expect(applied).toEqual([])
      const after = await db.query<{ version: string }>('select version from schema_migrations order by version')
      expect(after.map((r) => r.version)).toEqual(listMigrations().map((m) => m.version))
      // The tables of the renamed migrations are there once (a second run of their SQL would have failed).
      const streets = await db.query<{ n: number }>(`select count(*)::int as n from street_names`)
      expect(streets[0]?.n).toBe(0)
    })
  })
})
