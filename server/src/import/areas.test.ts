import { join } from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { searchData } from '#core/contract/lookups.ts'
import { createTestUser, type TestUser } from '../accounts/test-user.ts'
import { reloadBoundaries } from '../testing/boundaries.ts'
import { createTestApp, type TestApp } from '../testing/test-app.ts'
import { importFile } from './import-file.ts'
import { areaLevel } from './kinds/areas.ts'

// Four Đà Nẵng wards of the 2025 boundary set as published (fixtures/README.md): the unit's type is part
// of its name ("Phường Ngũ Hành Sơn") and the file has no level column.
const daNang = join(import.meta.dirname, 'fixtures/da-nang-wards-2025.gpkg')
const datasetId = `areas-da-nang-${Date.now().toString(36)}`
let t: TestApp
let user: TestUser
beforeAll(async () => {
  t = await createTestApp({ DAILY_LOOKUP_LIMIT: '1000' })
  user = await createTestUser(t)
})
// Dated from 1 July 2025, the file replaces the national boundaries the shared database may hold: they
// are put back for the test files after this one.
afterAll(async () => {
  await t.db.query('delete from datasets where id = $1', [datasetId])
  await reloadBoundaries()
})

describe('administrative areas', () => {
  it('reads the unit types files write', () => {
    expect(['Quận', 'Huyện', 'Thị xã', 'Urban District'].map((v) => areaLevel(v))).toEqual([
      'district',
      'district',
      'district',
      'district',
    ])
    expect(['Phường', 'xa', 'Thị trấn', 'Tỉnh'].map((v) => areaLevel(v))).toEqual(['ward', 'ward', 'ward', 'province'])
    expect(() => areaLevel('Khu phố')).toThrow(/cấp đơn vị hành chính không rõ: "Khu phố"/)
  })

  it('imports the Đà Nẵng wards file as it is, and finds "Phường Ngũ Hành Sơn" when searched as "ngu hanh son"', async () => {
    const s = await importFile(t.db, {
      file: daNang,
      kind: 'areas',
      set: { level: 'ward' },
      source: 'sapnhap.bando.com.vn',
      date: '2025-07-01',
      datasetId,
    })
    expect(s).toMatchObject({ read: 4, inserted: 4, rejected: 0, crs: 'EPSG:4326' })
    const rows = await t.db.query<{ name: string; level: string; province: string }>(
      'select name, level, province from admin_units where dataset_id = $1',
      [datasetId],
    )
    expect(rows.map((r) => r.name).sort()).toEqual(
      ['Phường Hải Châu', 'Phường Ngũ Hành Sơn', 'Phường Sơn Trà', 'Phường Thanh Khê'].sort(),
    )
    expect(new Set(rows.map((r) => `${r.level} ${r.province}`))).toEqual(new Set(['ward Thành phố Đà Nẵng']))

    // Typed without diacritics, as on a keyboard without Vietnamese input.
    const res = await t.request(`/api/search?q=${encodeURIComponent('ngu hanh son')}`, { token: user.token })
    const [hit] = searchData.parse(res.body.data)
    expect(hit).toMatchObject({ kind: 'ward', label: 'Phường Ngũ Hành Sơn', detail: 'Thành phố Đà Nẵng' })
    // Ngũ Hành Sơn lies south-east of the city centre, on the coast.
    expect(hit!.lat).toBeGreaterThan(15.95)
    expect(hit!.lat).toBeLessThan(16.05)
    expect(hit!.lng).toBeGreaterThan(108.2)
    expect(hit!.lng).toBeLessThan(108.3)
  })
})
