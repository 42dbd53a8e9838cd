import { join } from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { searchData } from '#core/contract/lookups.ts'
import { createTestUser, type TestUser } from '../accounts/test-user.ts'
import { createTestApp, type TestApp } from '../testing/test-app.ts'
import { importFile } from './import-file.ts'
import { areaLevel } from './kinds/areas.ts'

// The real GADM file as published (shared/ sits beside the repository): names with missing diacritics.
const daNang = join(import.meta.dirname, '../../../../shared/data/real/da-nang-districts.geojson')
const datasetId = `areas-da-nang-${Date.now().toString(36)}`
let t: TestApp
let user: TestUser
beforeAll(async () => {
  t = await createTestApp({ DAILY_LOOKUP_LIMIT: '1000' })
  user = await createTestUser(t)
})
afterAll(async () => {
  await t.db.query('delete from datasets where id = $1', [datasetId])
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

  it('imports the Đà Nẵng districts file as it is, and finds "Ngu Hành Son" when searched as "Ngũ Hành Sơn"', async () => {
    const s = await importFile(t.db, { file: daNang, kind: 'areas', source: 'GADM', date: '2018-04-01', datasetId })
    expect(s).toMatchObject({ read: 7, inserted: 7, rejected: 0, crs: 'EPSG:4326' })
    const rows = await t.db.query<{ name: string; level: string; province: string }>(
      'select name, level, province from admin_units where dataset_id = $1',
      [datasetId],
    )
    expect(rows.map((r) => r.name).sort()).toEqual(
      ['Cẩm Lệ', 'Hải Châu', 'Hoà Vang', 'Liên Chiểu', 'Ngu Hành Son', 'Son Trà', 'Thanh Khê'].sort(),
    )
    expect(new Set(rows.map((r) => `${r.level} ${r.province}`))).toEqual(new Set(['district Thành phố Đà Nẵng']))

    const res = await t.request(`/api/search?q=${encodeURIComponent('Ngũ Hành Sơn')}`, { token: user.token })
    const [hit] = searchData.parse(res.body.data)
    expect(hit).toMatchObject({ kind: 'ward', label: 'Ngu Hành Son', detail: 'Thành phố Đà Nẵng' })
    // Ngũ Hành Sơn lies south-east of the city centre, on the coast.
    expect(hit!.lat).toBeGreaterThan(15.95)
    expect(hit!.lat).toBeLessThan(16.05)
    expect(hit!.lng).toBeGreaterThan(108.2)
    expect(hit!.lng).toBeLessThan(108.3)
  })
})
