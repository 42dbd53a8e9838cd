import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import type { Database } from '../db/database.ts'
import { testDb } from '../testing/test-app.ts'
import { ImportError } from './errors.ts'
import { writeShapefile } from './fixtures/write-shapefile.ts'
import { writeZip } from './fixtures/write-zip.ts'
import { importFile } from './import-file.ts'
import { unusableReason } from './kinds/kind.ts'

const fixture = (name: string) => join(import.meta.dirname, 'fixtures', name)
const uid = (prefix: string) => `${prefix}-${Date.now().toString(36)}${Math.random().toString(36).slice(2, 8)}`
// Every dataset a test may create is removed afterwards: the suites after this one share the
// database, and the valuation fits on all comparables.
const created: string[] = []
const datasetIdFor = (prefix: string) => {
  const id = uid(prefix)
  created.push(id)
  return id
}
const tmp = mkdtempSync(join(tmpdir(), 'qh-import-'))
const hcmc = { kind: 'vn2000', meridian: 105.75 } as const
const base = { source: 'Sở Tài nguyên và Môi trường (thử nghiệm)', date: '2024-06-01' }

/** Ground distance in metres between two nearby WGS84 points. */
function metres(a: number[], b: number[]): number {
  const lat = (b[1]! * Math.PI) / 180
  return Math.hypot((a[0]! - b[0]!) * 111_320 * Math.cos(lat), (a[1]! - b[1]!) * 110_574)
}

/** A small square parcel in WGS84 near central TP.HCM, as a GeoJSON feature. */
function parcelFeature(i: number, props: Record<string, unknown> = {}) {
  const lng = 106.7 + (i % 100) * 0.0002
  const lat = 10.77 + Math.floor(i / 100) * 0.0002
  const d = 0.0001
  return {
    type: 'Feature',
    properties: { so_to: 5, so_thua: i + 1, phuong_xa: 'Phường Sài Gòn', tinh_tp: 'Thành phố Hồ Chí Minh', ...props },
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
}

function writeCollection(name: string, features: unknown[]): string {
  const file = join(tmp, name)
  writeFileSync(file, JSON.stringify({ type: 'FeatureCollection', features }))
  return file
}

let db: Database
const dataVersion = async () => (await db.query<{ v: number }>('select version::float8 as v from data_version'))[0]!.v
const parcelCount = async (datasetId: string) =>
  (await db.query<{ n: number }>('select count(*)::int as n from parcels where dataset_id = $1', [datasetId]))[0]!.n

beforeAll(async () => {
  db = await testDb()
})

afterAll(async () => {
  await db.query('delete from datasets where id = any($1::text[])', [created])
  rmSync(tmp, { recursive: true, force: true })
})

describe('importFile: GeoJSON parcels', () => {
  it('reprojects VN-2000, repairs a self-intersecting parcel and reports each rejected feature by number', async () => {
    const datasetId = datasetIdFor('parcels')
    const before = await dataVersion()
    const s = await importFile(db, {
      ...base,
      file: fixture('parcels-vn2000.geojson'),
      kind: 'parcels',
      crs: hcmc,
      datasetId,
    })

    expect(s).toMatchObject({
      datasetId,
      read: 8,
      inserted: 3,
      repaired: 1,
      rejected: 5,
      crs: 'vn2000:105.75',
      crsFrom: 'option',
      replaced: false,
    })
    expect(s.rejections).toEqual([
      { n: 3, reason: 'thiếu số thửa (parcel_no)' },
      { n: 4, reason: 'số tờ không phải số: "12a"' },
      { n: 5, reason: 'hình học rỗng' },
      { n: 6, reason: 'tọa độ (500000, 100000) nằm ngoài phạm vi Việt Nam' },
      { n: 7, reason: unusableReason },
    ])
    expect(await dataVersion()).toBe(before + 1)

    const rows = await db.query<{
      sheet_no: number
      parcel_no: number
      area_m2: number
      address: string
      ward: string
      frontage_m: number | null
      distance_to_street_m: number | null
      geojson: string
      valid: boolean
      uses: { code: string; area_m2: number }[]
    }>(
      `select p.sheet_no, p.parcel_no, p.area_m2::float8 as area_m2, p.address, p.ward, p.frontage_m, p.distance_to_street_m, ST_AsGeoJSON(p.geom, 12) as geojson, ST_IsValid(p.geom) as valid,
         coalesce((select json_agg(json_build_object('code', u.code, 'area_m2', u.area_m2) order by u.code desc) from parcel_land_use u where u.parcel_id = p.id), '[]') as uses
       from parcels p where p.dataset_id = $1 order by p.sheet_no, p.parcel_no`,
      [datasetId],
    )
    expect(rows.map((r) => [r.sheet_no, r.parcel_no])).toEqual([
      [12, 34],
      [12, 35],
      [13, 1],
    ])
    expect(rows.every((r) => r.valid)).toBe(true)

    const [p34, p35, p131] = rows as [(typeof rows)[0], (typeof rows)[0], (typeof rows)[0]]
    // E 603000, N 1191000 on meridian 105°45′ is 106.6935840935 E, 10.7684036578 N according to PROJ's cs2cs.
    const first = (JSON.parse(p34.geojson) as { coordinates: number[][][][] }).coordinates[0]![0]![0]!
    expect(metres(first, [106.6935840935, 10.7684036578])).toBeLessThan(0.01)
    expect(p34).toMatchObject({
      area_m2: 1200,
      address: '34 Đường Lê Thánh Tôn',
      ward: 'Phường Bến Thành',
      frontage_m: 8.5,
      distance_to_street_m: 0,
    })
    expect(p131).toMatchObject({ frontage_m: null, distance_to_street_m: null })
    expect(p34.uses).toEqual([{ code: 'ODT', area_m2: 1200 }])

    // The bow tie is cut into its two triangles (2 × 40 m × 15 m / 2); with no area column, the area is measured.
    expect((JSON.parse(p35.geojson) as { coordinates: unknown[] }).coordinates).toHaveLength(2)
    expect(p35.area_m2).toBeGreaterThan(599)
    expect(p35.area_m2).toBeLessThan(601)
    expect(p35.uses[0]).toEqual({ code: 'ODT', area_m2: 60 })
    expect(p35.uses[1]!.code).toBe('CLN')
    expect(p35.uses[1]!.area_m2).toBeCloseTo(p35.area_m2 - 60, 6)

    expect(p131.area_m2).toBe(150.5)
    expect(p131.uses).toEqual([
      { code: 'ODT', area_m2: 100 },
      { code: 'CLN', area_m2: 50.5 },
    ])

    const [ds] = await db.query<{ kind: string; source: string; data_date: string; crs: string; covers: boolean }>(
      `select kind, source, data_date::text as data_date, crs,
         (select bool_and(ST_Covers(d.bounds, p.geom)) from parcels p where p.dataset_id = d.id) as covers
       from datasets d where id = $1`,
      [datasetId],
    )
    expect(ds).toEqual({
      kind: 'parcels',
      source: base.source,
      data_date: '2024-06-01',
      crs: 'vn2000:105.75',
      covers: true,
    })
  })

  it('leaves the database exactly as it was when the file breaks midway, even after batches were written', async () => {
    const datasetId = datasetIdFor('parcels')
    await importFile(db, { ...base, file: fixture('parcels-vn2000.geojson'), kind: 'parcels', crs: hcmc, datasetId })
    const [before] = await db.query<{ imported_at: Date }>('select imported_at from datasets where id = $1', [
      datasetId,
    ])
    const version = await dataVersion()

    const good = JSON.stringify({
      type: 'FeatureCollection',
      features: Array.from({ length: 3000 }, (_, i) => parcelFeature(i, { dia_chi: `hỏng ${datasetId}` })),
    })
    const broken = join(tmp, `broken-${datasetId}.geojson`)
    writeFileSync(broken, `${good.slice(0, -2)},{"type":"Feature","properties":{"so_to":`)

    const replace = importFile(db, { ...base, file: broken, kind: 'parcels', datasetId, batchSize: 500 })
    await expect(replace).rejects.toThrow(ImportError)
    await expect(replace).rejects.toThrow(/Tệp GeoJSON hỏng sau đối tượng thứ 3000/)
    const fresh = datasetIdFor('parcels')
    await expect(
      importFile(db, { ...base, file: broken, kind: 'parcels', datasetId: fresh, batchSize: 500 }),
    ).rejects.toThrow(ImportError)

    expect(await parcelCount(datasetId)).toBe(3)
    const [after] = await db.query<{ imported_at: Date }>('select imported_at from datasets where id = $1', [datasetId])
    expect(after!.imported_at.getTime()).toBe(before!.imported_at.getTime())
    expect(await db.query('select 1 from datasets where id = $1', [fresh])).toEqual([])
    expect(await db.query('select 1 from parcels where address = $1', [`hỏng ${datasetId}`])).toEqual([])
    expect(await dataVersion()).toBe(version)
  })

  it('replaces a dataset re-imported under the same id in one step: readers see the old rows or the new, never a mix', async () => {
    const datasetId = datasetIdFor('parcels')
    await importFile(db, { ...base, file: fixture('parcels-vn2000.geojson'), kind: 'parcels', crs: hcmc, datasetId })
    const v2 = writeCollection(
      `v2-${datasetId}.geojson`,
      Array.from({ length: 5 }, (_, i) => parcelFeature(i, { loai_dat: 'TMD' })),
    )

    const seen: Promise<number>[] = []
    const s = await importFile(
      db,
      { ...base, date: '2025-01-01', file: v2, kind: 'parcels', datasetId, batchSize: 1 },
      () => {
        seen.push(parcelCount(datasetId))
      },
    )
    expect(s).toMatchObject({ replaced: true, inserted: 5, rejected: 0, crs: 'EPSG:4326', crsFrom: 'default' })
    expect(seen.length).toBeGreaterThan(1)
    for (const count of await Promise.all(seen)) expect([3, 5]).toContain(count)

    expect(await parcelCount(datasetId)).toBe(5)
    const uses = await db.query<{ code: string }>(
      'select distinct u.code from parcel_land_use u join parcels p on p.id = u.parcel_id where p.dataset_id = $1',
      [datasetId],
    )
    expect(uses).toEqual([{ code: 'TMD' }])
    const [ds] = await db.query<{ n: number; data_date: string }>(
      'select count(*)::int as n, max(data_date)::text as data_date from datasets where id = $1',
      [datasetId],
    )
    expect(ds).toEqual({ n: 1, data_date: '2025-01-01' })
  })

  it('refuses to replace a dataset of another kind, and fails without change when no row is usable', async () => {
    const datasetId = datasetIdFor('parcels')
    await importFile(db, { ...base, file: fixture('parcels-vn2000.geojson'), kind: 'parcels', crs: hcmc, datasetId })
    const prices = join(tmp, `prices-${datasetId}.csv`)
    writeFileSync(prices, 'tinh_tp,ten_duong,vt1\nThành phố Hồ Chí Minh,Lê Lợi,1000\n')
    await expect(importFile(db, { ...base, file: prices, kind: 'prices', datasetId })).rejects.toThrow(/loại parcels/)
    expect(await parcelCount(datasetId)).toBe(3)

    const none = writeCollection(`none-${datasetId}.geojson`, [
      parcelFeature(0, { so_thua: null }),
      parcelFeature(1, { so_to: 'x' }),
    ])
    const fresh = datasetIdFor('parcels')
    const err = await importFile(db, { ...base, file: none, kind: 'parcels', datasetId: fresh }).catch(
      (e: unknown) => e,
    )
    expect(err).toBeInstanceOf(ImportError)
    expect((err as ImportError).rejections.map((r) => r.n)).toEqual([1, 2])
    expect(await db.query('select 1 from datasets where id = $1', [fresh])).toEqual([])
  })
})

describe('importFile: Shapefile', () => {
  const prj =
    'PROJCS["VN_2000_TM3_105_45",GEOGCS["GCS_VN_2000",DATUM["D_Vietnam_2000",SPHEROID["WGS_1984",6378137.0,298.257223563]],PRIMEM["Greenwich",0.0],' +
    'UNIT["Degree",0.0174532925199433]],PROJECTION["Transverse_Mercator"],PARAMETER["False_Easting",500000.0],PARAMETER["False_Northing",0.0],' +
    'PARAMETER["Central_Meridian",105.75],PARAMETER["Scale_Factor",0.9999],PARAMETER["Latitude_Of_Origin",0.0],UNIT["Meter",1.0]]'
  const fields = [
    { name: 'SHBANDO', type: 'N', length: 4 },
    { name: 'SHTHUA', type: 'N', length: 5 },
    { name: 'DIENTICH', type: 'N', length: 10, decimals: 1 },
    { name: 'KHLOAIDAT', type: 'C', length: 12 },
    { name: 'TENXA', type: 'C', length: 60 },
  ] as const
  // Clockwise outer rings, (easting, northing), as shapefiles store them.
  const square = (e: number, n: number, s: number) => [
    [
      [e, n],
      [e, n + s],
      [e + s, n + s],
      [e + s, n],
      [e, n],
    ],
  ]

  it('reads .shp/.dbf attributes in UTF-8 and takes VN-2000 from the .prj when --crs is absent', async () => {
    const shp = join(tmp, `thua-${uid('shp')}`)
    writeShapefile(
      shp,
      [...fields],
      [
        {
          rings: square(603000, 1191000, 10),
          attrs: { SHBANDO: 7, SHTHUA: 101, DIENTICH: '100.0', KHLOAIDAT: 'ODT', TENXA: 'Phường Bến Thành' },
        },
        {
          rings: square(603020, 1191000, 12),
          attrs: { SHBANDO: 7, SHTHUA: 102, DIENTICH: '144.0', KHLOAIDAT: 'TMD', TENXA: 'Phường Bến Thành' },
        },
        { rings: null, attrs: { SHBANDO: 7, SHTHUA: 103, TENXA: 'Phường Bến Thành' } },
      ],
      { prj, cpg: 'UTF-8' },
    )
    const datasetId = datasetIdFor('shp')
    const s = await importFile(db, {
      ...base,
      file: `${shp}.shp`,
      kind: 'parcels',
      datasetId,
      set: { province: 'Thành phố Hồ Chí Minh' },
    })
    expect(s).toMatchObject({
      read: 3,
      inserted: 2,
      rejected: 1,
      crs: 'vn2000:105.75',
      crsFrom: 'file',
      unit: 'đối tượng',
    })
    expect(s.rejections).toEqual([{ n: 3, reason: 'hình học rỗng' }])

    const rows = await db.query<{
      parcel_no: number
      ward: string
      province: string
      area_m2: number
      measured: number
      x: number
      y: number
    }>(
      `select parcel_no, ward, province, area_m2::float8 as area_m2, ST_Area(geom::geography)::float8 as measured,
         ST_XMin(geom)::float8 as x, ST_YMin(geom)::float8 as y
       from parcels where dataset_id = $1 order by parcel_no`,
      [datasetId],
    )
    expect(rows.map((r) => [r.parcel_no, r.ward, r.province, r.area_m2])).toEqual([
      [101, 'Phường Bến Thành', 'Thành phố Hồ Chí Minh', 100],
      [102, 'Phường Bến Thành', 'Thành phố Hồ Chí Minh', 144],
    ])
    // A 10 m VN-2000 square measures 100 m² on the ground, give or take the grid's scale (k = 0.9999 plus distortion).
    expect(rows[0]!.measured).toBeGreaterThan(99.9)
    expect(rows[0]!.measured).toBeLessThan(100.1)
  })

  it('refuses whole, importing nothing, a shapefile whose .dbf is cut and a .zip whose .shp is cut', async () => {
    const shp = join(tmp, `cut-${uid('shp')}`)
    const records = Array.from({ length: 50 }, (_, i) => ({
      rings: square(603000 + 20 * i, 1191000, 10),
      attrs: { SHBANDO: 7, SHTHUA: i + 1, DIENTICH: '100.0', KHLOAIDAT: 'ODT', TENXA: 'Phường Bến Thành' },
    }))
    writeShapefile(shp, [...fields], records, { prj, cpg: 'UTF-8' })
    const whole = (ext: string) => readFileSync(`${shp}.${ext}`)
    const half = (b: Buffer) => b.subarray(0, Math.floor(b.length / 2))
    const zip = join(tmp, `cut-${uid('zip')}.zip`)
    writeZip(
      zip,
      ['shp', 'shx', 'dbf', 'prj'].map((ext) => ({
        name: `to-7.${ext}`,
        data: ext === 'shp' ? half(whole(ext)) : whole(ext),
      })),
    )
    writeFileSync(`${shp}.dbf`, half(whole('dbf')))
    const options = { ...base, kind: 'parcels' as const, set: { province: 'Thành phố Hồ Chí Minh' } }
    for (const [file, part] of [
      [`${shp}.shp`, 'dbf'],
      [zip, 'shp'],
    ] as const) {
      const datasetId = datasetIdFor('cut')
      const err = await importFile(db, { ...options, file, datasetId }).catch((e: unknown) => e)
      expect(err).toBeInstanceOf(ImportError)
      expect((err as ImportError).message).toMatch(new RegExp(`\\.${part} bị cắt .*không nhập gì`))
      expect(await db.query('select 1 from datasets where id = $1', [datasetId])).toEqual([])
    }
  })

  it('asks for --crs when the shapefile has no .prj', async () => {
    const shp = join(tmp, `no-prj-${uid('shp')}`)
    writeShapefile(
      shp,
      [...fields],
      [{ rings: square(603000, 1191000, 10), attrs: { SHBANDO: 1, SHTHUA: 1, TENXA: 'Xã A' } }],
    )
    await expect(
      importFile(db, { ...base, file: `${shp}.shp`, kind: 'parcels', set: { province: 'Tỉnh B' } }),
    ).rejects.toThrow(/không có tệp \.prj; hãy chỉ rõ --crs/)
  })
})

describe('importFile: CSV', () => {
  it('imports a price table with quoted fields, Vietnamese text and prices in thousand đồng, numbering rejects by line', async () => {
    const file = join(tmp, `gia-dat-${uid('p')}.csv`)
    writeFileSync(
      file,
      '\ufefftinh_tp,ten_duong,tu,den,nam,vt1,vt2,vt3,vt4,ghi_chu\r\n' +
        '"Thành phố Hồ Chí Minh","Nguyễn Huệ","Lê Lợi","Tôn Đức Thắng",2026,"687.200","343.600","274.880","219.904","Bảng giá ""điều chỉnh"", 2026"\r\n' +
        '"Thành phố Hồ Chí Minh","Đồng Khởi","Lê Lợi, Quận 1","Tôn Đức Thắng",,"500.000",,,,"ghi chú\r\nhai dòng"\r\n' +
        '"Thành phố Hồ Chí Minh","Lê Lợi","A","B",2026,"không rõ",,,,\r\n' +
        '"Thành phố Hồ Chí Minh","Pasteur","A","B",2026,"100.000",,,\r\n',
    )
    const datasetId = datasetIdFor('prices')
    const s = await importFile(db, { ...base, date: '2026-01-01', file, kind: 'prices', datasetId, priceUnit: 1000 })
    expect(s).toMatchObject({ read: 4, inserted: 2, rejected: 2, unit: 'dòng', crs: 'EPSG:4326' })
    expect(s.rejections).toEqual([
      { n: 5, reason: 'giá VT1 không phải số: "không rõ"' },
      { n: 6, reason: 'có 9 cột trong khi dòng tiêu đề có 10 cột' },
    ])
    const rows = await db.query(
      `select street_name, street_fold, segment_from, segment_to, year, vt1::float8 as vt1, vt2::float8 as vt2, vt4::float8 as vt4, source
       from price_rows where dataset_id = $1 order by street_fold`,
      [datasetId],
    )
    expect(rows).toEqual([
      {
        street_name: 'Đồng Khởi',
        street_fold: 'dong khoi',
        segment_from: 'Lê Lợi, Quận 1',
        segment_to: 'Tôn Đức Thắng',
        year: 2026,
        vt1: 500_000_000,
        vt2: null,
        vt4: null,
        source: base.source,
      },
      {
        street_name: 'Nguyễn Huệ',
        street_fold: 'nguyen hue',
        segment_from: 'Lê Lợi',
        segment_to: 'Tôn Đức Thắng',
        year: 2026,
        vt1: 687_200_000,
        vt2: 343_600_000,
        vt4: 219_904_000,
        source: base.source,
      },
    ])
    const [ds] = await db.query<{ bounds: unknown }>('select bounds from datasets where id = $1', [datasetId])
    expect(ds!.bounds).toBeNull()
  })

  it('reads a windows-1258 file with --encoding, and recognises it from its text without', async () => {
    // "Đường Láng" in windows-1258: base letters followed by combining tone marks.
    const street = [0xd0, 0xfd, 0xf5, 0xcc, 0x6e, 0x67, 0x20, 0x4c, 0x61, 0xec, 0x6e, 0x67]
    const file = join(tmp, `gia-1258-${uid('p')}.csv`)
    writeFileSync(
      file,
      Buffer.concat([Buffer.from('tinh_tp,ten_duong,vt1\nHN,'), Buffer.from(street), Buffer.from(',1000\n')]),
    )
    const found = datasetIdFor('prices')
    expect((await importFile(db, { ...base, file, kind: 'prices', datasetId: found })).text).toEqual({
      encoding: 'windows-1258',
      from: 'detected',
    })
    const datasetId = datasetIdFor('prices')
    await importFile(db, { ...base, file, kind: 'prices', datasetId, encoding: '1258' })
    expect(
      await db.query('select street_name, street_fold from price_rows where dataset_id = $1', [datasetId]),
    ).toEqual([{ street_name: 'Đường Láng', street_fold: 'duong lang' }])
  })

  it('imports comparables given in VN-2000 X (northing) / Y (easting) columns, semicolon-separated as Vietnamese Excel writes', async () => {
    const file = join(tmp, `giao-dich-${uid('c')}.csv`)
    writeFileSync(
      file,
      'X;Y;ngay_giao_dich;gia;dien_tich;mat_tien;hem;so_tang;loai\n' +
        '1191000;603000;15/03/2025;"12.500.000.000";"62,5";4;;3;"Nhà phố"\n' +
        '1191100;603050;2025-04-01;8.000.000.000;50;"4,2";"3,5";2;Đất nền\n' +
        '1191200;603100;31/02/2025;1000;50;;;;\n',
    )
    const datasetId = datasetIdFor('comparables')
    const s = await importFile(db, { ...base, file, kind: 'comparables', crs: hcmc, datasetId })
    expect(s).toMatchObject({ read: 3, inserted: 2, rejected: 1 })
    expect(s.rejections).toEqual([{ n: 4, reason: 'ngày giao dịch không phải ngày có thật: "31/02/2025"' }])
    const rows = await db.query<{
      lng: number
      lat: number
      observed_at: string
      price_vnd: number
      area_m2: number
      frontage_m: number
      alley_width_m: number | null
      floors: number
      kind: string
    }>(
      `select ST_X(geom)::float8 as lng, ST_Y(geom)::float8 as lat, observed_at::text as observed_at, price_vnd::float8 as price_vnd,
         area_m2, frontage_m, alley_width_m, floors, kind
       from comparables where dataset_id = $1 order by observed_at`,
      [datasetId],
    )
    expect(metres([rows[0]!.lng, rows[0]!.lat], [106.6935840935, 10.7684036578])).toBeLessThan(0.01)
    expect(rows.map(({ lng: _lng, lat: _lat, ...rest }) => rest)).toEqual([
      {
        observed_at: '2025-03-15',
        price_vnd: 12_500_000_000,
        area_m2: 62.5,
        frontage_m: 4,
        alley_width_m: null,
        floors: 3,
        kind: 'nha_pho',
      },
      {
        observed_at: '2025-04-01',
        price_vnd: 8_000_000_000,
        area_m2: 50,
        frontage_m: 4.2,
        alley_width_m: 3.5,
        floors: 2,
        kind: 'dat_nen',
      },
    ])
  })
})

describe('importFile: planning and roads', () => {
  it('creates the plan named by --set and its zones with their rules', async () => {
    const zone = (i: number, props: Record<string, unknown>) => ({ ...parcelFeature(i), properties: props })
    const file = writeCollection(`qhpk-${uid('q')}.geojson`, [
      zone(0, { ma_chuc_nang: 'odt', ky_hieu: 'I.1', mat_do: '60', tang_cao: 8, he_so_sdd: '4,5' }),
      zone(1, { ma_chuc_nang: 'DKV', ky_hieu: 'CX.2' }),
      zone(2, { ky_hieu: 'I.3' }),
    ])
    const datasetId = datasetIdFor('planning')
    const s = await importFile(db, {
      ...base,
      file,
      kind: 'planning',
      datasetId,
      set: {
        plan_name: 'Quy hoạch phân khu Phường Sài Gòn',
        plan_level: 'QHPK',
        decision_no: '1234/QĐ-UBND',
        approved_at: '20/05/2024',
      },
    })
    expect(s).toMatchObject({ read: 3, inserted: 2, rejected: 1 })
    expect(s.rejections).toEqual([{ n: 3, reason: 'thiếu mã chức năng (land_use_code)' }])
    const zones = await db.query(
      `select p.name, p.level, p.decision_no, p.approved_at::text as approved_at, z.block_code, z.land_use_code, z.max_density_pct, z.max_floors, z.max_far
       from planning_zones z join plans p on p.id = z.plan_id where z.dataset_id = $1 order by z.block_code`,
      [datasetId],
    )
    const plan = {
      name: 'Quy hoạch phân khu Phường Sài Gòn',
      level: 'QHPK 1/2000',
      decision_no: '1234/QĐ-UBND',
      approved_at: '2024-05-20',
    }
    expect(zones).toEqual([
      { ...plan, block_code: 'CX.2', land_use_code: 'DKV', max_density_pct: null, max_floors: null, max_far: null },
      { ...plan, block_code: 'I.1', land_use_code: 'ODT', max_density_pct: 60, max_floors: 8, max_far: 4.5 },
    ])
  })

  it('stores lines as streets (merging multi-part lines) and polygons as road reserves', async () => {
    const file = writeCollection(`duong-${uid('r')}.geojson`, [
      {
        type: 'Feature',
        properties: { ten_duong: 'Nguyễn Huệ', lo_gioi: 60, cap_duong: 'chính' },
        geometry: {
          type: 'LineString',
          coordinates: [
            [106.7, 10.77],
            [106.703, 10.774],
          ],
        },
      },
      {
        type: 'Feature',
        properties: { ten_duong: 'Hẻm 12 Lê Lợi', lo_gioi: '2,5' },
        geometry: {
          type: 'MultiLineString',
          coordinates: [
            [
              [106.71, 10.77],
              [106.711, 10.77],
            ],
            [
              [106.711, 10.77],
              [106.712, 10.771],
            ],
          ],
        },
      },
      { ...parcelFeature(3), properties: { ten_duong: 'Lê Lợi', lo_gioi: 30 } },
      {
        type: 'Feature',
        properties: { ten_duong: 'Pasteur', lo_gioi: 20 },
        geometry: { type: 'Point', coordinates: [106.7, 10.77] },
      },
    ])
    const datasetId = datasetIdFor('roads')
    const s = await importFile(db, {
      ...base,
      file,
      kind: 'roads',
      datasetId,
      set: { province: 'Thành phố Hồ Chí Minh' },
    })
    expect(s).toMatchObject({ read: 4, inserted: 3, rejected: 1 })
    expect(s.rejections[0]).toEqual({
      n: 4,
      reason: 'kiểu hình học Point không dùng được, cần đường (LineString) hoặc vùng (Polygon)',
    })
    const streets = await db.query(
      `select name, "class", width_m, ST_NPoints(geom) as points from streets where dataset_id = $1 order by name`,
      [datasetId],
    )
    expect(streets).toEqual([
      { name: 'Hẻm 12 Lê Lợi', class: 'alley', width_m: 2.5, points: 3 },
      { name: 'Nguyễn Huệ', class: 'main', width_m: 60, points: 2 },
    ])
    expect(await db.query('select road_name, width_m from road_reserves where dataset_id = $1', [datasetId])).toEqual([
      { road_name: 'Lê Lợi', width_m: 30 },
    ])
  })
})
