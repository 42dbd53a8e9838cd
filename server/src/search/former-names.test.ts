import { mkdtempSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { searchData, type SearchResult } from '#core/contract/lookups.ts'
import { createTestUser, type TestUser } from '../accounts/test-user.ts'
import { importFile } from '../import/import-file.ts'
import { boundariesLoaded } from '../testing/boundaries.ts'
import { createTestApp, type TestApp } from '../testing/test-app.ts'
import { parseSheetParcel } from './search.ts'

const tmp = mkdtempSync(join(tmpdir(), 'qh-former-'))
let t: TestApp
let user: TestUser
beforeAll(async () => {
  await boundariesLoaded()
  t = await createTestApp({ DAILY_LOOKUP_LIMIT: '1000' })
  user = await createTestUser(t)
})
afterAll(() => rmSync(tmp, { recursive: true, force: true }))

async function search(q: string, limit = 10): Promise<SearchResult[]> {
  const res = await t.request(`/api/search?q=${encodeURIComponent(q)}&limit=${limit}`, { token: user.token })
  expect(res.status).toBe(200)
  return searchData.parse(res.body.data)
}

describe('search by the names from before 1 July 2025', () => {
  it('finds Phường An Hội Tây for "phường 12 gò vấp", the hit saying the old name too', async () => {
    const [hit] = await search('phường 12 gò vấp')
    expect(hit).toMatchObject({ kind: 'ward', label: 'Phường An Hội Tây' })
    expect(hit!.detail).toContain('Trước 1/7/2025: Phường 12, Quận Gò Vấp')
    expect(hit!.detail).toContain('Thành phố Hồ Chí Minh')
  })

  it('finds Phường Sài Gòn for "Bến Nghé" and Phường Hoàn Kiếm for "Hàng Trống"', async () => {
    expect((await search('Bến Nghé'))[0]).toMatchObject({ kind: 'ward', label: 'Phường Sài Gòn' })
    expect((await search('hang trong'))[0]).toMatchObject({ kind: 'ward', label: 'Phường Hoàn Kiếm' })
  })

  it('lists the new wards that cover an old district named alone: "quận 3"', async () => {
    const hits = await search('quận 3', 20)
    expect(hits.slice(0, 3).map((r) => r.label)).toEqual(['Phường Bàn Cờ', 'Phường Nhiêu Lộc', 'Phường Xuân Hòa'])
    expect(hits.slice(0, 3).every((r) => r.detail.includes('Quận 3'))).toBe(true)
  })

  it('lists every new ward an old ward was split into: Phường 13, Gò Vấp → An Hội Tây and An Hội Đông', async () => {
    const hits = await search('phường 13 quận gò vấp', 20)
    expect(hits.slice(0, 2).map((r) => r.label)).toEqual(['Phường An Hội Tây', 'Phường An Hội Đông'])
    expect(hits.slice(0, 2).every((r) => r.detail.includes('Phường 13, Quận Gò Vấp'))).toBe(true)
  })

  it('finds a ward by its new name, and "xã Đan Phượng, Hà Nội" with the province narrowing the answers', async () => {
    expect((await search('an hoi tay'))[0]).toMatchObject({ kind: 'ward', label: 'Phường An Hội Tây' })
    const hits = await search('xã Đan Phượng, Hà Nội')
    expect(hits[0]).toMatchObject({ kind: 'ward', label: 'Xã Đan Phượng' })
    expect(hits.every((r) => `${r.label} ${r.detail}`.includes('Hà Nội'))).toBe(true)
  })
})

describe('search by a parcel reference however it is written', () => {
  it('reads the certificate wording and the short forms', () => {
    const want = { sheet_no: 18, parcel_no: 118, ward: '' }
    expect(parseSheetParcel('thua dat so 118, to ban do so 18')).toEqual(want)
    expect(parseSheetParcel('so to 18 so thua 118')).toEqual(want)
    expect(parseSheetParcel('t18 th118')).toEqual(want)
    expect(parseSheetParcel('to 18 thua 118 tan phong')).toEqual({ ...want, ward: 'tan phong' })
  })

  it('finds the parcel from each wording, a ward after it (old or new name) narrowing the hits', async () => {
    const square = (lng: number, lat: number, d = 0.0001) => [
      [
        [lng, lat],
        [lng + d, lat],
        [lng + d, lat + d],
        [lng, lat + d],
        [lng, lat],
      ],
    ]
    const feature = (ward: string, lng: number, lat: number) => ({
      type: 'Feature',
      properties: { so_to: 18, so_thua: 118, phuong_xa: ward, tinh_tp: 'TP. Hồ Chí Minh' },
      geometry: { type: 'Polygon', coordinates: square(lng, lat) },
    })
    const file = join(tmp, 'to-18.geojson')
    // Phường Tân Phong (Quận 7, now Phường Tân Hưng) and a parcel in Phường 12, Gò Vấp (now An Hội Tây).
    const features = [feature('Phường Tân Phong', 106.7035, 10.7335), feature('Phường 12', 106.63724, 10.8446)]
    writeFileSync(file, JSON.stringify({ type: 'FeatureCollection', features }))
    const datasetId = `former-${Date.now().toString(36)}`
    await importFile(t.db, { file, kind: 'parcels', source: 'Thử nghiệm', date: '2024-06-01', datasetId })
    try {
      const parcels = async (q: string) => (await search(q, 50)).filter((r) => r.kind === 'parcel')
      for (const q of ['Thửa đất số 118, tờ bản đồ số 18', 'số tờ 18 số thửa 118', 't18 th118']) {
        expect((await parcels(q)).map((r) => r.detail).join(' | '), q).toMatch(
          /Tân Phong.*Phường 12|Phường 12.*Tân Phong/,
        )
      }
      const tanPhong = await parcels('tờ 18 thửa 118 Tân Phong')
      expect(tanPhong.map((r) => r.detail)).toEqual([expect.stringContaining('Phường Tân Phong')])
      const anHoiTay = await parcels('tờ 18 thửa 118 phường An Hội Tây')
      expect(anHoiTay.map((r) => r.detail)).toEqual([expect.stringContaining('Phường 12')])
    } finally {
      await t.db.query('delete from datasets where id = $1', [datasetId])
    }
  })
})
