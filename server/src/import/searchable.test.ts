import { mkdtempSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { searchData, type SearchResult } from '#core/contract/lookups.ts'
import { foldVietnamese } from '#core/text/fold.ts'
import { createTestUser, type TestUser } from '../accounts/test-user.ts'
import { createTestApp, type TestApp } from '../testing/test-app.ts'
import { importFile } from './import-file.ts'

const tmp = mkdtempSync(join(tmpdir(), 'qh-searchable-'))
let t: TestApp
let user: TestUser
beforeAll(async () => {
  t = await createTestApp({ DAILY_LOOKUP_LIMIT: '1000' })
  user = await createTestUser(t)
})
afterAll(() => rmSync(tmp, { recursive: true, force: true }))

async function search(q: string): Promise<SearchResult[]> {
  const res = await t.request(`/api/search?q=${encodeURIComponent(q)}`, { token: user.token })
  expect(res.status).toBe(200)
  return searchData.parse(res.body.data)
}

/** A 10 m square parcel in Đà Nẵng (WGS84), the i-th along a row. */
function parcel(i: number, props: Record<string, unknown>) {
  const [lng, lat, d] = [108.15 + i * 0.0002, 16.07, 0.0001]
  const ring = [
    [lng, lat],
    [lng + d, lat],
    [lng + d, lat + d],
    [lng, lat + d],
    [lng, lat],
  ]
  return {
    type: 'Feature',
    properties: {
      so_to: 18,
      phuong_xa: 'Phường Hòa Khánh Bắc',
      quan_huyen: 'Quận Liên Chiểu',
      tinh_tp: 'TP. Đà Nẵng',
      ...props,
    },
    geometry: { type: 'Polygon', coordinates: [ring] },
  }
}

describe('imported parcels in the search', () => {
  it('finds the street and ward their addresses name, the address and tờ/thửa at once after the import, and nothing once the dataset is gone', async () => {
    const file = join(tmp, 'thua-hoa-khanh.geojson')
    const features = [
      parcel(0, { so_thua: 118, dia_chi: '12 Nguyễn Lương Bằng' }),
      parcel(1, { so_thua: 119, dia_chi: '14 Nguyễn Lương Bằng, Phường Hòa Khánh Bắc' }),
      parcel(2, { so_thua: 120, dia_chi: 'Số 3 Đường Âu Cơ' }),
    ]
    writeFileSync(file, JSON.stringify({ type: 'FeatureCollection', features }))
    const datasetId = `search-${Date.now().toString(36)}`
    await importFile(t.db, { file, kind: 'parcels', source: 'Thử nghiệm', date: '2024-06-01', datasetId })

    const street = await search('Nguyen Luong Bang')
    expect(street[0]).toMatchObject({
      kind: 'street',
      label: 'Nguyễn Lương Bằng',
      detail: 'Phường Hòa Khánh Bắc, Quận Liên Chiểu, Thành phố Đà Nẵng',
    })
    expect(street.filter((r) => r.kind === 'street' && r.label === 'Nguyễn Lương Bằng')).toHaveLength(1)
    expect(street[0]!.lng).toBeCloseTo(108.15, 2)
    expect(street[0]!.lat).toBeCloseTo(16.07, 2)
    expect((await search('au co'))[0]).toMatchObject({ kind: 'street', label: 'Đường Âu Cơ' })
    expect((await search('hoa khanh bac'))[0]).toMatchObject({
      kind: 'ward',
      label: 'Phường Hòa Khánh Bắc',
      detail: 'Quận Liên Chiểu, Thành phố Đà Nẵng',
    })
    expect((await search('12 nguyen luong bang'))[0]).toMatchObject({
      kind: 'address',
      label: '12 Nguyễn Lương Bằng',
      detail: 'Tờ 18, thửa 118, Thành phố Đà Nẵng',
    })
    expect((await search('thửa 118 tờ 18')).map((r) => r.label)).toContain('Tờ 18, thửa 118')

    await t.db.query('delete from datasets where id = $1', [datasetId])
    expect((await search('Nguyen Luong Bang')).filter((r) => r.label.includes('Nguyễn Lương Bằng'))).toEqual([])
    expect((await search('hoa khanh bac')).filter((r) => r.label === 'Phường Hòa Khánh Bắc')).toEqual([])
  })

  it('takes no street from an address without a house number, and lists a street written in different case or quotes once', async () => {
    const file = join(tmp, 'thua-son-tra.geojson')
    const features = [
      parcel(10, { so_thua: 201, dia_chi: 'quận Sơn Trà, TP. Đà Nẵng' }),
      parcel(11, { so_thua: 202, dia_chi: 'Thôn Đoài Khê' }),
      parcel(12, { so_thua: 203, dia_chi: '7 Ngô Quyền' }),
      parcel(13, { so_thua: 204, dia_chi: '9 NGÔ QUYỀN' }),
      parcel(14, { so_thua: 205, dia_chi: '11 "Ngô Quyền"' }),
    ]
    writeFileSync(file, JSON.stringify({ type: 'FeatureCollection', features }))
    const datasetId = `search-no-street-${Date.now().toString(36)}`
    await importFile(t.db, { file, kind: 'parcels', source: 'Thử nghiệm', date: '2024-06-01', datasetId })
    try {
      const streets = async (q: string) => (await search(q)).filter((r) => r.kind === 'street')
      expect(await streets('son tra')).toEqual([])
      expect(await streets('doai khe')).toEqual([])
      const ngo = (await streets('ngo quyen')).filter((r) => foldVietnamese(r.label).replace(/"/g, '') === 'ngo quyen')
      expect(ngo).toHaveLength(1)
      expect(ngo[0]!.label).toBe('Ngô Quyền')
    } finally {
      await t.db.query('delete from datasets where id = $1', [datasetId])
    }
  })
})
