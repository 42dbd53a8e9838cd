import { mkdtempSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { importOsmBasemap } from '../basemap/import-osm.ts'
import type { Database } from '../db/index.ts'
import { importFile } from '../import/import-file.ts'
import { testDb } from '../testing/test-app.ts'
import { PRIOR } from './market.ts'
import { valuate } from './valuation.ts'

const fixtures = join(import.meta.dirname, '../import/fixtures/real')
const WORKBOOK = join(fixtures, 'Bang gia dat Nha nuoc.xls')
// The typical effects the market fit starts from: fixed, so the figures below do not move with the data.
const elasticities = PRIOR

const tmp = mkdtempSync(join(tmpdir(), 'qh-price-place-'))
const tag = `${process.pid}-${Date.now().toString(36)}`
const ids = {
  osm: `basemap-ntmk-${tag}`,
  q1: `prices-q1-${tag}`,
  q3: `prices-q3-${tag}`,
  ntmkParcels: `parcels-ntmk-${tag}`,
  roads: `roads-three-${tag}`,
  prices: `prices-three-${tag}`,
  parcels: `parcels-three-${tag}`,
  k: `price-coefficients-${tag}`,
}

/** A square parcel of about 10 × 10 m centred on the point. */
function square(lat: number, lng: number): number[][][] {
  const dLat = 5 / 111_320
  const dLng = 5 / (111_320 * Math.cos((lat * Math.PI) / 180))
  return [
    [
      [lng - dLng, lat - dLat],
      [lng + dLng, lat - dLat],
      [lng + dLng, lat + dLat],
      [lng - dLng, lat + dLat],
      [lng - dLng, lat - dLat],
    ],
  ]
}
const parcelFeature = (lat: number, lng: number, props: Record<string, unknown>) => ({
  type: 'Feature',
  properties: { dien_tich: 100, loai_dat: 'ODT', ...props },
  geometry: { type: 'Polygon', coordinates: square(lat, lng) },
})
function writeJson(name: string, features: unknown[]): string {
  const file = join(tmp, name)
  writeFileSync(file, JSON.stringify({ type: 'FeatureCollection', features }))
  return file
}

let db: Database
const asOf = '2025-06-30'
const stateAt = async (lat: number, lng: number) =>
  (await valuate(db, { lat, lng }, { asOf, elasticities })).state_price

// On Nguyễn Thị Minh Khai between Nam Kỳ Khởi Nghĩa and Phạm Ngọc Thạch, 12 m north-west of the
// street, on the Quận 3 side: south-west of Hai Bà Trưng, so the Quận 3 row "Hai Bà Trưng → Cao Thắng".
const NTMK = { lat: 10.781169 + 0.0000728, lng: 106.696477 - 0.0000807 }

const importSheet = (id: string, sheet: string) =>
  importFile(db, {
    file: WORKBOOK,
    kind: 'prices',
    sheet,
    datasetId: id,
    source: 'Quyết định 79/2024/QĐ-UBND',
    date: '2024-10-31',
    province: 'TP. Hồ Chí Minh',
  })

beforeAll(async () => {
  db = await testDb()
  await importOsmBasemap(db, {
    file: join(fixtures, 'osm-nguyen-thi-minh-khai.osm'),
    datasetId: ids.osm,
    name: 'OpenStreetMap',
    source: '© OpenStreetMap contributors',
    date: '2025-11-01',
    province: 'TP.HCM',
  })
  await importFile(db, {
    file: writeJson('ntmk-parcels.geojson', [
      parcelFeature(NTMK.lat, NTMK.lng, {
        so_to: 9001,
        so_thua: 1,
        dia_chi: 'Nguyễn Thị Minh Khai',
        phuong_xa: 'Phường 6',
        quan_huyen: 'Quận 3',
        tinh_tp: 'TP. Hồ Chí Minh',
      }),
    ]),
    kind: 'parcels',
    datasetId: ids.ntmkParcels,
    source: 'thử nghiệm',
    date: '2025-01-01',
  })

  const kFile = join(tmp, 'he-so-k.csv')
  writeFileSync(kFile, 'tinh_tp,nam,khu_vuc,he_so_k\nTP. Hồ Chí Minh,2024,Quận 3,1.5\n')
  await importFile(db, {
    file: kFile,
    kind: 'price-coefficients',
    datasetId: ids.k,
    source: 'hệ số K thử',
    date: '2024-10-31',
  })

  // A made-up street in three segments between four crossings, and a fourth whose far end no street holds.
  const y = 12.3
  const crossing = (name: string, x: number) => ({
    type: 'Feature',
    properties: { ten_duong: name, lo_gioi: 8, tinh_tp: 'Lâm Đồng' },
    geometry: {
      type: 'LineString',
      coordinates: [
        [x, y - 0.001],
        [x, y + 0.001],
      ],
    },
  })
  await importFile(db, {
    file: writeJson('three-segments.geojson', [
      {
        type: 'Feature',
        properties: { ten_duong: 'Đường Thử Ba Đoạn', lo_gioi: 16, tinh_tp: 'Lâm Đồng' },
        geometry: {
          type: 'LineString',
          coordinates: [
            [107.6, y],
            [107.62, y],
            [107.64, y],
          ],
        },
      },
      crossing('Đường Số 1', 107.602),
      crossing('Đường Số 2', 107.612),
      crossing('Đường Số 3', 107.622),
      crossing('Đường Số 4', 107.632),
    ]),
    kind: 'roads',
    datasetId: ids.roads,
    source: 'thử nghiệm',
    date: '2025-01-01',
  })
  const csv = join(tmp, 'bang-gia-thu.csv')
  writeFileSync(
    csv,
    [
      'tuyen_duong,tu,den,vi_tri_1,tinh_tp',
      'ĐƯỜNG THỬ BA ĐOẠN,ĐƯỜNG SỐ 3,ĐƯỜNG SỐ 4,300000,Lâm Đồng',
      'ĐƯỜNG THỬ BA ĐOẠN,ĐƯỜNG SỐ 1,ĐƯỜNG SỐ 2,100000,Lâm Đồng',
      'ĐƯỜNG THỬ BA ĐOẠN,ĐƯỜNG SỐ 2,ĐƯỜNG SỐ 3,200000,Lâm Đồng',
      'ĐƯỜNG THỬ BA ĐOẠN,ĐƯỜNG SỐ 4,CẦU KHÔNG CÓ,250000,Lâm Đồng',
    ].join('\n'),
  )
  await importFile(db, {
    file: csv,
    kind: 'prices',
    datasetId: ids.prices,
    source: 'bảng giá thử',
    date: '2025-01-01',
    priceUnit: 1000,
  })
  await importFile(db, {
    file: writeJson(
      'three-parcels.geojson',
      [107.607, 107.617, 107.627, 107.636].map((x, i) =>
        parcelFeature(y + 0.0001, x, {
          so_to: 9002,
          so_thua: i + 1,
          dia_chi: 'Đường Thử Ba Đoạn',
          phuong_xa: 'Xã Thử',
          tinh_tp: 'Lâm Đồng',
        }),
      ),
    ),
    kind: 'parcels',
    datasetId: ids.parcels,
    source: 'thử nghiệm',
    date: '2025-01-01',
  })
}, 240_000)

afterAll(async () => {
  await db.query('delete from datasets where id = any($1::text[])', [Object.values(ids)])
  rmSync(tmp, { recursive: true, force: true })
})

describe('the state price row of a parcel, by place', () => {
  it('gives a parcel on a made-up street the segment between the two crossings it lies between, whatever order the table lists them in', async () => {
    const y = 12.3 + 0.0001
    const at = await Promise.all([107.607, 107.617, 107.627].map((x) => stateAt(y, x)))
    expect(at.map((s) => [s?.segment_from, s?.segment_to, s?.price_vnd_per_m2, s?.note])).toEqual([
      ['ĐƯỜNG SỐ 1', 'ĐƯỜNG SỐ 2', 100_000_000, null],
      ['ĐƯỜNG SỐ 2', 'ĐƯỜNG SỐ 3', 200_000_000, null],
      ['ĐƯỜNG SỐ 3', 'ĐƯỜNG SỐ 4', 300_000_000, null],
    ])
    expect(at[0]).toMatchObject({ street: 'ĐƯỜNG THỬ BA ĐOẠN', position: 'VT1', decision_no: null })
    expect(at[0]?.prices).toEqual({ VT1: 100_000_000, VT2: null, VT3: null, VT4: null })
  })

  it('falls back to the nearest segment where a crossing is not on the map, and says so', async () => {
    const s = await stateAt(12.3 + 0.0001, 107.636)
    expect([s?.segment_from, s?.segment_to, s?.price_vnd_per_m2]).toEqual(['ĐƯỜNG SỐ 4', 'CẦU KHÔNG CÓ', 250_000_000])
    expect(s?.note).toBe(
      'Chưa xác định được đoạn chứa thửa đất (không thấy trên bản đồ giao lộ CẦU KHÔNG CÓ); đã chọn đoạn gần nhất, ưu tiên đoạn cùng quận/huyện.',
    )
  })

  it('prices the Nguyễn Thị Minh Khai building from the real workbook and OpenStreetMap by its place, whichever sheet was imported first, with the K of its district', async () => {
    const answers = []
    for (const order of [
      ['Quận 3', 'Quận 1'],
      ['Quận 1', 'Quận 3'],
    ] as const) {
      await db.query('delete from datasets where id = any($1::text[])', [[ids.q1, ids.q3]])
      for (const sheet of order) await importSheet(sheet === 'Quận 1' ? ids.q1 : ids.q3, sheet)
      answers.push(await stateAt(NTMK.lat, NTMK.lng))
    }
    expect(answers[1]).toEqual(answers[0])
    expect(answers[0]).toMatchObject({
      street: 'NGUYỄN THỊ MINH KHAI',
      segment_from: 'HAI BÀ TRƯNG',
      segment_to: 'CAO THẮNG',
      district: 'Quận 3',
      position: 'VT1',
      price_vnd_per_m2: 305_800_000,
      prices: { VT1: 305_800_000, VT2: null, VT3: null, VT4: null },
      decision_no: '79/2024/QĐ-UBND',
      effective_from: '2024-10-31',
      year: 2024,
      k_coefficient: 1.5,
      adjusted_vnd_per_m2: 458_700_000,
    })
    // The extract holds Hai Bà Trưng but not Cao Thắng or the far crossings: the answer says so.
    expect(answers[0]?.note).toMatch(
      /^Chưa xác định được đoạn chứa thửa đất \(không thấy trên bản đồ giao lộ .*CAO THẮNG/,
    )
  })
})
