import { mkdtempSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import type { Database } from '../db/index.ts'
import { importFile } from '../import/import-file.ts'
import { testDb } from '../testing/test-app.ts'
import { PRIOR } from './market.ts'
import { valuate } from './valuation.ts'

/**
 * The residual method (thặng dư) end to end on the database: parcels under a governing plan's zones
 * with known limits, sales whose price per m² of floor is known, and the costs of migration 019 (the
 * defaults docs/domain.md states) or a province's imported ones.
 */

// The typical effects the market fit starts from: fixed, so the figures below do not move with the data.
const elasticities = PRIOR
const tmp = mkdtempSync(join(tmpdir(), 'qh-residual-'))
const tag = `${process.pid}-${Date.now().toString(36)}`
const ids = {
  parcels: `parcels-residual-${tag}`,
  plan: `planning-residual-${tag}`,
  sales: `comparables-residual-${tag}`,
  costs: `residual-costs-${tag}`,
}
const PROVINCE = 'Khánh Hòa'
const asOf = '2025-06-30'
// Two parcels 60 m apart in Nha Trang, each in its own zone of one detailed plan.
const lat = 12.2431
const WITH_FAR = { lat, lng: 109.1902 }
const WITHOUT_FAR = { lat, lng: 109.1908 }

const dLat = (m: number) => m / 111_320
const dLng = (m: number) => m / (111_320 * Math.cos((lat * Math.PI) / 180))
/** A square of `half` metres either side of the point. */
const square = (p: { lat: number; lng: number }, half: number) => [
  [
    [p.lng - dLng(half), p.lat - dLat(half)],
    [p.lng + dLng(half), p.lat - dLat(half)],
    [p.lng + dLng(half), p.lat + dLat(half)],
    [p.lng - dLng(half), p.lat + dLat(half)],
    [p.lng - dLng(half), p.lat - dLat(half)],
  ],
]
function writeJson(name: string, features: { properties: Record<string, unknown>; coordinates: number[][][] }[]) {
  const file = join(tmp, name)
  const geojson = features.map((f) => ({
    type: 'Feature',
    properties: f.properties,
    geometry: { type: 'Polygon', coordinates: f.coordinates },
  }))
  writeFileSync(file, JSON.stringify({ type: 'FeatureCollection', features: geojson }))
  return file
}

let db: Database
const methodsAt = async (p: { lat: number; lng: number }) =>
  (await valuate(db, p, { asOf, elasticities })).market_estimate?.methods ?? []

beforeAll(async () => {
  db = await testDb()
  const parcel = (p: { lat: number; lng: number }, no: number) => ({
    properties: {
      so_to: 77,
      so_thua: no,
      dien_tich: 100,
      loai_dat: 'ODT',
      phuong_xa: 'Phường Nha Trang',
      tinh_tp: PROVINCE,
    },
    coordinates: square(p, 5),
  })
  await importFile(db, {
    file: writeJson('parcels.geojson', [parcel(WITH_FAR, 1), parcel(WITHOUT_FAR, 2)]),
    kind: 'parcels',
    datasetId: ids.parcels,
    source: 'thử nghiệm',
    date: '2025-01-01',
  })
  const plan = {
    ten_do_an: 'QHCT thử phương pháp thặng dư',
    cap_qh: 'QHCT',
    so_qd: '99/QĐ-UBND',
    ngay_pd: '2024-05-01',
  }
  await importFile(db, {
    file: writeJson('zones.geojson', [
      // FAR stated: 3.2 (within 80 % × 5 floors).
      {
        properties: { ...plan, ma_chuc_nang: 'ODT', mat_do: 80, tang_cao: 5, he_so_sdd: 3.2 },
        coordinates: square(WITH_FAR, 25),
      },
      // No FAR: density × floors, 60 % × 4 = 2.4.
      { properties: { ...plan, ma_chuc_nang: 'ODT', mat_do: 60, tang_cao: 4 }, coordinates: square(WITHOUT_FAR, 25) },
    ]),
    kind: 'planning',
    datasetId: ids.plan,
    source: 'thử nghiệm',
    date: '2025-01-01',
  })
  // Five sales on the valuation date, 100 m² each, every one at 50 triệu đ per m² of floor: 2 to 5
  // floors at 100 to 250 triệu đ per m² of land.
  const sales = join(tmp, 'sales.csv')
  writeFileSync(
    sales,
    [
      'lat,lng,ngay_giao_dich,gia,dien_tich,so_tang',
      ...[2, 3, 4, 4, 5].map(
        (floors, i) => `${lat + dLat(20 + 10 * i)},${109.1905},${asOf},${floors * 5e9},100,${floors}`,
      ),
    ].join('\n'),
  )
  await importFile(db, { file: sales, kind: 'comparables', datasetId: ids.sales, source: 'thử nghiệm', date: asOf })
}, 240_000)

afterAll(async () => {
  await db.query('delete from datasets where id = any($1::text[])', [Object.values(ids)])
  rmSync(tmp, { recursive: true, force: true })
})

describe('the residual method (thặng dư) on the database', () => {
  it("builds the land out to the governing zone's FAR at the area's price per m² of floor, less the documented default cost and margin", async () => {
    const [comparison, residual] = await methodsAt(WITH_FAR)
    expect(comparison).toMatchObject({ method: 'so_sanh', weight: 1 })
    // 3.2 × (50,000,000 × (1 − 15 %) − 7,500,000) = 112,000,000 đ/m² of land, shown beside the comparison.
    expect(residual).toMatchObject({ method: 'thang_du', vnd_per_m2: 112_000_000, weight: 0 })
    expect(residual?.note).toMatch(
      /^Hệ số sử dụng đất 3,2 theo quy hoạch × \(giá 50 triệu đ\/m² sàn trong khu vực × 0,85 /,
    )
    expect(residual?.note).toContain('chi phí xây dựng 7,5 triệu đ/m² sàn')
  })

  it('takes density × floors where the zone states no FAR', async () => {
    const [, residual] = await methodsAt(WITHOUT_FAR)
    // 0.6 × 4 × (50,000,000 × 0.85 − 7,500,000) = 84,000,000.
    expect(residual).toMatchObject({ method: 'thang_du', vnd_per_m2: 84_000_000 })
  })

  it("uses the province's imported build cost and margin instead of the default", async () => {
    const costs = join(tmp, 'chi-phi.csv')
    writeFileSync(costs, `tinh_tp,chi_phi_xay_dung,loi_nhuan,nguon\n${PROVINCE},9000000,20,Suất vốn đầu tư thử\n`)
    await importFile(db, {
      file: costs,
      kind: 'residual-costs',
      datasetId: ids.costs,
      source: 'thử nghiệm',
      date: asOf,
    })
    try {
      const [, residual] = await methodsAt(WITH_FAR)
      // 3.2 × (50,000,000 × 0.8 − 9,000,000) = 99,200,000.
      expect(residual).toMatchObject({ method: 'thang_du', vnd_per_m2: 99_200_000 })
      expect(residual?.note).toContain('Chi phí: Suất vốn đầu tư thử.')
    } finally {
      await db.query('delete from datasets where id = $1', [ids.costs])
    }
  })
})
