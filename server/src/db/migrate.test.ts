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

  describe('a database made by an earlier main: migrations up to 023, under the earlier numbering (three 009s, three 010s)', () => {
    let db: Database
    let applied: string[]
    // Migrating a database from nothing is the slow part; a hook's time is not the test's.
    beforeAll(async () => {
      db = await openPglite(undefined)
      const oldName = Object.fromEntries(Object.entries(RENAMED_VERSIONS).map(([from, to]) => [to, from]))
      // What the earlier code recorded: the same SQL files under their earlier names, up to 023.
      const earlier = listMigrations()
        .filter((m) => m.version < '024')
        .map((m) => ({ ...m, version: oldName[m.version] ?? m.version }))
        .sort((a, b) => a.version.localeCompare(b.version))
      await migrate(db, earlier)
      await db.exec(`
        insert into datasets (id, kind, name, source, data_date, crs) values ('old', 'prices', 'Cũ', 'Cũ', '2025-01-01', 'EPSG:4326');
        insert into streets (dataset_id, name, class, width_m, province, geom) values
          ('old', 'Phố Huế', 'street', 12, 'Thành phố Hà Nội', ST_SetSRID(ST_MakeLine(ST_Point(105.85, 21.01), ST_Point(105.852, 21.01)), 4326));
        insert into admin_units (dataset_id, level, name, province, geom) values
          ('old', 'ward', 'Phường Hai Bà Trưng', 'Thành phố Hà Nội', ST_Multi(ST_MakeEnvelope(105.84, 21.0, 105.86, 21.02, 4326)));
        insert into price_rows (dataset_id, province, street_name, year, vt1, source) values ('old', 'Thành phố Hà Nội', 'HUẾ', 2025, 100000000, 'Cũ');
        insert into price_coefficients (dataset_id, province, year, street, k, source) values ('old', 'Thành phố Hà Nội', 2025, 'Phố Huế', 1.2, 'Cũ');`)
      const before = await db.query<{ version: string }>('select version from schema_migrations order by version')
      expect(before.map((r) => r.version)).toContain('009_search_keys')
      applied = await migrate(db)
    }, 300_000)
    afterAll(async () => db?.close())

    it('upgrades to the new numbers running only the migrations it lacked, none twice', async () => {
      expect(applied).toEqual(
        listMigrations()
          .filter((m) => m.version >= '024')
          .map((m) => m.version),
      )
      const after = await db.query<{ version: string }>('select version from schema_migrations order by version')
      expect(after.map((r) => r.version)).toEqual(listMigrations().map((m) => m.version))
      // The tables of the renamed migrations are there once (a second run of their SQL would have failed).
      const streets = await db.query<{ n: number }>(`select count(*)::int as n from street_names`)
      expect(streets[0]?.n).toBe(1)
    })

    it('keys its streets, wards, price rows and coefficients by the one rule, and finds the price row of a street written with "Phố" by it', async () => {
      const keys = await db.query<{ key: string }>(
        `select name_key as key from streets union all select name_key from street_names union all select name_key from admin_units
         union all select street_key from price_rows union all select street_key from price_coefficients`,
      )
      expect(keys.map((r) => r.key)).toEqual(['hue', 'hue', 'hai ba trung', 'hue', 'hue'])
      const [match] = await db.query<{ street_name: string; how: string }>(
        `select pr.street_name, m.how from price_row_at(ST_SetSRID(ST_Point(105.851, 21.0101), 4326), null, 'Thành phố Hà Nội', '', '2026-01-01') m
         join price_rows pr on pr.id = m.row_id`,
      )
      expect(match).toEqual({ street_name: 'HUẾ', how: 'only' })
    })

    it('plans price_row_at as the one row it answers, so its price row is read by key and not every row of the tables', async () => {
      const [fn] = await db.query<{ rows: number }>(
        `select prorows::float8 as rows from pg_proc where proname = 'price_row_at'`,
      )
      expect(fn?.rows).toBe(1)
    })
  })
})
