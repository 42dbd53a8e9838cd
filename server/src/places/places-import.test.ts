import { mkdtempSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { place, planningData, searchData } from '#core/contract/lookups.ts'
import { tileJson } from '#core/contract/tiles.ts'
import { createTestUser, type TestUser } from '../accounts/test-user.ts'
import { importFile } from '../import/import-file.ts'
import { boundariesLoaded, reloadBoundaries } from '../testing/boundaries.ts'
import { createTestApp, type TestApp } from '../testing/test-app.ts'
import { BOUNDARIES, parseBeforeText } from './boundaries.ts'

const tmp = mkdtempSync(join(tmpdir(), 'qh-places-import-'))
const created: string[] = []
let t: TestApp
let user: TestUser
beforeAll(async () => {
  await boundariesLoaded()
  t = await createTestApp({ DAILY_LOOKUP_LIMIT: '1000' })
  user = await createTestUser(t)
})
afterAll(async () => {
  await t.db.query('delete from datasets where id = any($1::text[])', [created])
  rmSync(tmp, { recursive: true, force: true })
})

const box = (lng: number, lat: number, d: number) => ({
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
})

/** A GeoJSON file of square features (lng, lat: the south-west corner) with the given properties. */
function geojson(name: string, features: { props: Record<string, unknown>; lng: number; lat: number; d?: number }[]) {
  const file = join(tmp, name)
  writeFileSync(
    file,
    JSON.stringify({
      type: 'FeatureCollection',
      features: features.map((f) => ({
        type: 'Feature',
        properties: f.props,
        geometry: box(f.lng, f.lat, f.d ?? 0.0001),
      })),
    }),
  )
  return file
}

async function importParcels(name: string, features: Parameters<typeof geojson>[1]) {
  const datasetId = `places-${name}-${Date.now().toString(36)}`
  created.push(datasetId)
  const summary = await importFile(t.db, {
    file: geojson(`${name}.geojson`, features),
    kind: 'parcels',
    source: 'Thử nghiệm',
    date: '2024-06-01',
    datasetId,
  })
  return { datasetId, summary }
}

async function planningAt(lat: number, lng: number) {
  const res = await t.request(`/api/planning?lat=${lat}&lng=${lng}`, { token: user.token })
  expect(res.status).toBe(200)
  return planningData.parse(res.body.data)
}

// Phường 12 of Quận Gò Vấp, inside today's Phường An Hội Tây.
const [GV_LNG, GV_LAT] = [106.63724, 10.8446]

describe('parcels imported with the names from before 1 July 2025 or after', () => {
  it('answers today’s ward and province for a parcel whose file names only its old ward, and that old ward alone as before', async () => {
    await importParcels('old-names', [
      {
        props: {
          so_to: 31,
          so_thua: 310,
          phuong_xa: 'Phường 12',
          quan_huyen: 'Quận Gò Vấp',
          tinh_tp: 'TP. Hồ Chí Minh',
        },
        lng: GV_LNG,
        lat: GV_LAT,
      },
    ])
    const data = await planningAt(GV_LAT + 0.00005, GV_LNG + 0.00005)
    expect(data.parcel).toMatchObject({ sheet_no: 31, parcel_no: 310, ward: 'Phường 12' })
    expect(data.place).toMatchObject({ ward: 'Phường An Hội Tây', province: 'Thành phố Hồ Chí Minh' })
    expect(data.place?.before_2025).toEqual([
      { ward: 'Phường 12', district: 'Quận Gò Vấp', province: 'Thành phố Hồ Chí Minh' },
    ])
  })

  it('still lists the old wards for a parcel whose file names only today’s ward', async () => {
    const lng = GV_LNG + 0.0003
    await importParcels('new-names', [
      {
        props: { so_to: 32, so_thua: 320, phuong_xa: 'Phường An Hội Tây', tinh_tp: 'Thành phố Hồ Chí Minh' },
        lng,
        lat: GV_LAT,
      },
    ])
    const data = await planningAt(GV_LAT + 0.00005, lng + 0.00005)
    expect(data.parcel).toMatchObject({ sheet_no: 32, ward: 'Phường An Hội Tây' })
    expect(data.place?.ward).toBe('Phường An Hội Tây')
    expect(data.place?.before_2025).toContainEqual({
      ward: 'Phường 12',
      district: 'Quận Gò Vấp',
      province: 'Thành phố Hồ Chí Minh',
    })
    expect(data.place!.before_2025.length).toBeGreaterThan(1)
  })

  it('finds the province of a file without one from where its parcels lie, keeping the old province and its VN-2000 meridian', async () => {
    const { datasetId } = await importParcels('no-province', [
      // Hoàn Kiếm, Hà Nội; and Lũng Cú, in Hà Giang before 2025 (meridian 105°30′), Tuyên Quang (106°) since.
      { props: { so_to: 1, so_thua: 11, phuong_xa: 'Phường Hàng Trống' }, lng: 105.8542, lat: 21.0285 },
      { props: { so_to: 1, so_thua: 12, phuong_xa: 'Xã Lũng Cú' }, lng: 105.3161, lat: 23.3636 },
    ])
    const rows = await t.db.query<{ parcel_no: number; province: string }>(
      'select parcel_no, province from parcels where dataset_id = $1 order by parcel_no',
      [datasetId],
    )
    expect(rows).toEqual([
      { parcel_no: 11, province: 'Thành phố Hà Nội' },
      { parcel_no: 12, province: 'Hà Giang' },
    ])
    const lungCu = await planningAt(23.36365, 105.31615)
    expect(lungCu.location.vn2000.zone_meridian).toBe(105.5)
    expect(lungCu.place).toMatchObject({ ward: 'Xã Lũng Cú', province: 'Tỉnh Tuyên Quang' })
  })

  it('refuses, in one line and writing nothing, a file without a province whose parcels lie outside Việt Nam', async () => {
    const file = geojson('at-sea.geojson', [
      { props: { so_to: 1, so_thua: 1, phuong_xa: 'Phường Biển' }, lng: 108.5, lat: 9.5 },
    ])
    const datasetId = `places-at-sea-${Date.now().toString(36)}`
    await expect(
      importFile(t.db, { file, kind: 'parcels', source: 'Thử nghiệm', date: '2024-06-01', datasetId }),
    ).rejects.toThrow(/^1 thửa không có tỉnh\/thành phố và nằm ngoài ranh giới hành chính Việt Nam; .*--province/)
    expect(await t.db.query('select 1 from datasets where id = $1', [datasetId])).toEqual([])
  })

  it('names the wards imported parcels cover in the parcels TileJSON, for a tap or search that finds nothing', async () => {
    await importParcels('coverage', [
      { props: { so_to: 2, so_thua: 21, phuong_xa: 'Phường Phủ Sóng', tinh_tp: 'An Giang' }, lng: 105.12, lat: 10.38 },
    ])
    const tj = tileJson.parse((await t.request('/tiles/parcels.json')).body)
    expect(tj.coverage).toContain('Phường Phủ Sóng, An Giang')
  })
})

describe('a newer boundary set imported with --kind areas', () => {
  it('reads the old units a file writes for a ward, a district in brackets for every unit before it', () => {
    expect(parseBeforeText('Phường 15, Phường 16 (quận Gò Vấp), Xã An Phú', 'TP')).toEqual([
      { ward: 'Phường 15', district: 'Quận Gò Vấp', province: 'TP' },
      { ward: 'Phường 16', district: 'Quận Gò Vấp', province: 'TP' },
      { ward: 'Xã An Phú', district: '', province: 'TP' },
    ])
  })

  it('keeps each ward’s old units, from the old → new rules or the file’s own column, and replaces the shipped set until it is removed', async () => {
    const province = 'Thành phố Hồ Chí Minh'
    const file = geojson('vn-admin-2026.geojson', [
      { props: { ten: province, cap: 'Thành phố' }, lng: 106.6, lat: 10.7, d: 0.2 },
      { props: { ten: 'Phường Sài Gòn', cap: 'Phường', tinh: province }, lng: 106.695, lat: 10.77, d: 0.015 },
      {
        props: {
          ten: 'Phường Thử Mới',
          cap: 'Phường',
          tinh: province,
          a05_truocsn: 'Phường 15, Phường 16 (quận Gò Vấp)',
        },
        lng: 106.65,
        lat: 10.85,
        d: 0.01,
      },
    ])
    const datasetId = `areas-2026-${Date.now().toString(36)}`
    try {
      const s = await importFile(t.db, {
        file,
        kind: 'areas',
        source: 'Bộ Nội vụ (thử)',
        date: '2026-05-01',
        datasetId,
      })
      expect(s).toMatchObject({ inserted: 3, rejected: 0 })
      const units = await t.db.query<{ name: string; level: string; before_2025: unknown }>(
        'select name, level, before_2025 from admin_units where dataset_id = $1 order by level, name',
        [datasetId],
      )
      expect(units.map((u) => [u.level, u.name])).toEqual([
        ['province', province],
        ['ward', 'Phường Sài Gòn'],
        ['ward', 'Phường Thử Mới'],
      ])
      expect(units[1]!.before_2025).toContainEqual({ ward: 'Phường Bến Nghé', district: 'Quận 1', province })
      expect(units[2]!.before_2025).toEqual([
        { ward: 'Phường 15', district: 'Quận Gò Vấp', province },
        { ward: 'Phường 16', district: 'Quận Gò Vấp', province },
      ])
      // The shipped set is gone: places, search and tiles answer from the imported one alone.
      expect(await t.db.query('select 1 from datasets where id = $1', [BOUNDARIES.datasetId])).toEqual([])
      const at = await t.request('/api/places/at?lat=10.7769&lng=106.7031', { token: user.token })
      expect(place.parse(at.body.data)).toMatchObject({
        ward: 'Phường Sài Gòn',
        source: { name: 'vn-admin-2026.geojson — nguồn: Bộ Nội vụ (thử)', data_date: '2026-05-01' },
      })
      const found = await t.request(`/api/search?q=${encodeURIComponent('phường 16 gò vấp')}`, { token: user.token })
      expect(searchData.parse(found.body.data)[0]).toMatchObject({ kind: 'ward', label: 'Phường Thử Mới' })
      const basemap = tileJson.parse((await t.request('/tiles/basemap.json')).body)
      expect(basemap.boundaries).toMatchObject({ source: 'Bộ Nội vụ (thử)', data_date: '2026-05-01' })
    } finally {
      await t.db.query('delete from datasets where id = $1', [datasetId])
      await reloadBoundaries()
    }
    expect(await t.db.query('select 1 from datasets where id = $1', [BOUNDARIES.datasetId])).toEqual([
      { '?column?': 1 },
    ])
  })
})
