import { mkdtempSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { parcelsData, planningData, searchData } from '#core/contract/lookups.ts'
import { createTestUser, type TestUser } from '../accounts/test-user.ts'
import { createTestApp, type TestApp } from '../testing/test-app.ts'
import { parseImportArgs } from './args.ts'
import { importFile } from './import-file.ts'

const tmp = mkdtempSync(join(tmpdir(), 'qh-province-'))
const created: string[] = []
const idFor = (prefix: string) => {
  const id = `${prefix}-${Date.now().toString(36)}${Math.random().toString(36).slice(2, 6)}`
  created.push(id)
  return id
}
const base = { source: 'Sở Tài nguyên và Môi trường (thử nghiệm)', date: '2024-06-01' }
const vn2000Fixture = join(import.meta.dirname, 'fixtures', 'parcels-vn2000.geojson')

let t: TestApp
let user: TestUser
beforeAll(async () => {
  t = await createTestApp({ DAILY_LOOKUP_LIMIT: '1000' })
  user = await createTestUser(t)
})
afterAll(async () => {
  await t.db.query('delete from datasets where id = any($1::text[])', [created])
  rmSync(tmp, { recursive: true, force: true })
})

describe('province names in imports', () => {
  it('stores "TP. Hồ Chí Minh" as the one province name, reads VN-2000 on 105°45′ for it and finds it as "HCM"', async () => {
    // In WGS84 near the HCMC/Bình Phước meridian boundary, where the nearest meridian would be 106°15′.
    const [lng, lat, d] = [106.7, 10.78, 0.0002]
    const file = join(tmp, 'tp-hcm.geojson')
    const feature = {
      type: 'Feature',
      properties: { so_to: 918, so_thua: 7171, phuong_xa: 'Phường Sài Gòn', tinh_tp: 'TP. Hồ Chí Minh' },
      geometry: {
        type: 'Polygon',
        coordinates: [
          [
            [lng, lat],
            [lng + d, lat],
            [lng + d, lat + d],
            [lng, lat + d],
            [lng, lat],
          ],
        ],
      },
    }
    writeFileSync(file, JSON.stringify({ type: 'FeatureCollection', features: [feature] }))
    const datasetId = idFor('province')
    await importFile(t.db, { ...base, file, kind: 'parcels', datasetId })
    const [row] = await t.db.query<{ province: string }>('select province from parcels where dataset_id = $1', [
      datasetId,
    ])
    expect(row?.province).toBe('Thành phố Hồ Chí Minh')

    const res = await t.request(`/api/planning?lat=${lat + d / 2}&lng=${lng + d / 2}`, { token: user.token })
    const data = planningData.parse(res.body.data)
    expect(data.parcel?.parcel_no).toBe(7171)
    expect(data.location.vn2000.zone_meridian).toBe(105.75)

    // Searchable at once after the import, by tờ/thửa in either order.
    for (const q of ['tờ 918 thửa 7171', 'thửa 7171 tờ 918', 'thua 7171, to 918']) {
      const found = await t.request(`/api/search?q=${encodeURIComponent(q)}`, { token: user.token })
      expect(
        searchData.parse(found.body.data).map((r) => r.label),
        q,
      ).toEqual(['Tờ 918, thửa 7171'])
    }

    for (const name of ['HCM', 'Tp Hồ Chí Minh', 'ho chi minh']) {
      const found = await t.request(`/api/parcels?province=${encodeURIComponent(name)}&sheet_no=918&parcel_no=7171`, {
        token: user.token,
      })
      expect(
        parcelsData.parse(found.body.data).map((p) => p.province),
        name,
      ).toEqual(['Thành phố Hồ Chí Minh'])
    }
  })

  it('takes the VN-2000 meridian from --province when the file declares no CRS, in any spelling', async () => {
    const byOption = await importFile(t.db, {
      ...base,
      file: vn2000Fixture,
      kind: 'parcels',
      crs: { kind: 'vn2000', meridian: 105.75 },
      datasetId: idFor('crs'),
    })
    const byProvince = await importFile(t.db, {
      ...base,
      file: vn2000Fixture,
      kind: 'parcels',
      province: 'TP.HCM',
      datasetId: idFor('prov'),
    })
    expect(byProvince).toMatchObject({ crs: 'vn2000:105.75', crsFrom: 'province', inserted: byOption.inserted })
    const extent = (id: string) =>
      t.db.query<{ e: string }>('select ST_AsText(bounds) as e from datasets where id = $1', [id])
    expect(await extent(byProvince.datasetId)).toEqual(await extent(byOption.datasetId))
  })

  it('warns that a merged province spans several meridians when --province names one', async () => {
    const s = await importFile(t.db, {
      ...base,
      file: vn2000Fixture,
      kind: 'parcels',
      province: 'tỉnh Lâm Đồng',
      datasetId: idFor('lamdong'),
    })
    expect(s.crs).toBe('vn2000:107.75')
    expect(s.warnings.join(' ')).toMatch(/Lâm Đồng sau sáp nhập 2025 dùng nhiều kinh tuyến trục \(107.75, 108.5\)/)
  })

  it('refuses a --province that is no province, naming --crs as the other way', async () => {
    await expect(
      importFile(t.db, { ...base, file: vn2000Fixture, kind: 'parcels', province: 'Tỉnh Không Có' }),
    ).rejects.toThrow(/Không nhận ra tỉnh\/thành phố "Tỉnh Không Có" \(--province\).*--crs vn2000/)
  })

  it('reads --province on the command line', () => {
    const parsed = parseImportArgs([
      'x.dgn',
      '--kind',
      'parcels',
      '--source',
      'S',
      '--date',
      '2024-01-01',
      '--province',
      'TP. Hồ Chí Minh',
    ])
    expect('options' in parsed && parsed.options.province).toBe('TP. Hồ Chí Minh')
  })
})
