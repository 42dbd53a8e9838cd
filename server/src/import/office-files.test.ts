import { spawnSync } from 'node:child_process'
import { existsSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import type { Database } from '../db/database.ts'
import { PARCEL_AT_SQL, parcelAtParams, parcelById, parcelsBySheet, type ParcelRecord } from '../planning/parcels.ts'
import { testDb } from '../testing/test-app.ts'
import { formatDataset, listDatasets } from './datasets.ts'
import { ImportError } from './errors.ts'
import { writeVilisShapefile, type VilisParcel } from './fixtures/vilis.ts'
import { importFile } from './import-file.ts'
import { placeParcels } from '../places/place-parcels.ts'

/*
 * Files as offices send them, imported with the obvious command: a ViLIS sheet (columns cut to 10
 * characters, TCVN3 text with no .cpg, an owner column, mixed use written ODT+CLN), GeoJSON that
 * declares its CRS or is in metres without saying so.
 */
const tmp = mkdtempSync(join(tmpdir(), 'qh-office-'))
const created: string[] = []
const idFor = (prefix: string) => {
  const id = `${prefix}-${Date.now().toString(36)}${Math.random().toString(36).slice(2, 6)}`
  created.push(id)
  return id
}
const base = { source: 'VPĐKĐĐ Đà Nẵng (thử nghiệm)', date: '2024-06-01' }
/** Thrown to roll a test's transaction back: the database is shared with the other tests of this worker. */
class RolledBack extends Error {}

const sheet: VilisParcel[] = [
  {
    sheet: 18,
    parcel: 118,
    area: 120.5,
    use: 'ODT+CLN',
    address: 'Tổ 12, phường An Hải Bắc, quận Sơn Trà, TP. Đà Nẵng',
    owner: 'Nguyễn Văn Thành',
    at: [548000, 1775000],
  },
  {
    sheet: 18,
    parcel: 119,
    area: 96,
    use: 'ODT',
    address: '25 Ngô Quyền, quận Sơn Trà, TP. Đà Nẵng',
    owner: 'Trần Thị Hồng',
    at: [548020, 1775000],
  },
]

let db: Database
/** The whole record of the one parcel with this tờ/thửa in the ward (the search answers only where it is). */
async function recordOf(q: { sheet_no: number; parcel_no: number; ward: string }): Promise<ParcelRecord | null> {
  const [ref] = await parcelsBySheet(db, q)
  return ref ? parcelById(db, ref.id) : null
}
beforeAll(async () => {
  db = await testDb()
})
afterAll(async () => {
  await db.query('delete from datasets where id = any($1::text[])', [created])
  rmSync(tmp, { recursive: true, force: true })
})

describe('a ViLIS export in TCVN3, imported as the office sent it', () => {
  const file = join(tmp, 'to-18')
  writeVilisShapefile(file, sheet)

  it('reads the cut column names, decodes the addresses, keeps ODT+CLN with each part’s area unknown and stores no owner name', async () => {
    const datasetId = idFor('vilis')
    const s = await importFile(db, {
      ...base,
      file: `${file}.shp`,
      kind: 'parcels',
      province: 'Đà Nẵng',
      set: { ward: 'Phường An Hải Bắc' },
      datasetId,
    })
    expect(s).toMatchObject({ read: 2, inserted: 2, rejected: 0, crs: 'vn2000:107.75', crsFrom: 'file' })
    expect(s.text).toEqual({ encoding: 'tcvn3', from: 'detected' })
    expect(s.personalColumns).toEqual(['TenChu'])

    const mixed = await recordOf({ sheet_no: 18, parcel_no: 118, ward: 'An Hải Bắc' })
    expect(mixed).toMatchObject({
      area_m2: 120.5,
      address: 'Tổ 12, phường An Hải Bắc, quận Sơn Trà, TP. Đà Nẵng',
      ward: 'Phường An Hải Bắc',
      province: 'Thành phố Đà Nẵng',
    })
    expect(mixed!.land_use).toEqual([
      { code: 'CLN', name: 'Đất trồng cây lâu năm', area_m2: null },
      { code: 'ODT', name: 'Đất ở tại đô thị', area_m2: null },
    ])
    const single = await recordOf({ sheet_no: 18, parcel_no: 119, ward: 'An Hải Bắc' })
    expect(single!.land_use).toEqual([{ code: 'ODT', name: 'Đất ở tại đô thị', area_m2: 96 }])

    const owners = await db.query(
      `select 1 from parcels where dataset_id = $1
         and (address ilike '%Nguyễn Văn Thành%' or address ilike '%Trần Thị Hồng%' or ward ilike '%Thành%')`,
      [datasetId],
    )
    expect(owners).toEqual([])
  })

  it('stops with one line naming the file’s columns and the option to add when no column gives the ward', async () => {
    const datasetId = idFor('vilis')
    const err = await importFile(db, {
      ...base,
      file: `${file}.shp`,
      kind: 'parcels',
      province: 'Đà Nẵng',
      datasetId,
    }).catch((e: unknown) => e)
    expect(err).toBeInstanceOf(ImportError)
    expect((err as ImportError).message).toBe(
      'Tệp không có cột phường/xã (ward); các cột của tệp: SoHieuToBa, SoThuTuThu, DienTich, KyHieuMucD, DiaChi, MaXa; ' +
        'hãy thêm --map ward=<tên cột> hoặc --set ward="<giá trị cho mọi dòng>"',
    )
    expect((err as ImportError).rejections).toEqual([])
    expect(await db.query('select 1 from datasets where id = $1', [datasetId])).toEqual([])
  })

  it('refuses to map the owner column into a stored field', async () => {
    await expect(
      importFile(db, {
        ...base,
        file: `${file}.shp`,
        kind: 'parcels',
        province: 'Đà Nẵng',
        set: { ward: 'Phường An Hải Bắc' },
        map: { address: 'TenChu' },
        datasetId: idFor('vilis'),
      }),
    ).rejects.toThrow(/Cột "TenChu".*dữ liệu cá nhân/)
  })
})

describe('GeoJSON and its CRS', () => {
  // Two parcels of the same Đà Nẵng sheet, in VN-2000 metres on 107°45′ (E, N) as GIS tools write them.
  const square = (e: number, n: number) => [
    [
      [e, n],
      [e + 10, n],
      [e + 10, n + 12],
      [e, n + 12],
      [e, n],
    ],
  ]
  const features = [0, 1].map((i) => ({
    type: 'Feature',
    properties: { so_to: 18, so_thua: 118 + i, phuong_xa: 'Phường An Hải Bắc', tinh_tp: 'Đà Nẵng' },
    geometry: { type: 'Polygon', coordinates: square(548000 + 20 * i, 1775000) },
  }))
  const write = (name: string, extra: Record<string, unknown>, list: unknown[] = features) => {
    const path = join(tmp, name)
    writeFileSync(path, JSON.stringify({ type: 'FeatureCollection', ...extra, features: list }))
    return path
  }
  const bounds = async (datasetId: string) =>
    (
      await db.query<{ b: number[] }>(
        'select array[ST_XMin(bounds), ST_YMin(bounds)]::float8[] as b from datasets where id = $1',
        [datasetId],
      )
    )[0]!.b

  it('places a file by its own crs member (EPSG:9210-style names, before or after the features) where --crs puts it', async () => {
    const byOption = idFor('gj')
    await importFile(db, {
      ...base,
      kind: 'parcels',
      file: write('option.geojson', {}),
      crs: { kind: 'vn2000', meridian: 107.75 },
      datasetId: byOption,
    })
    const expected = await bounds(byOption)
    // EPSG:5899 is VN-2000 / TM-3 107-45, the zone Đà Nẵng uses.
    for (const [name, crs] of [
      ['urn.geojson', { type: 'name', properties: { name: 'urn:ogc:def:crs:EPSG::5899' } }],
      ['epsg.geojson', { type: 'EPSG', properties: { code: 5899 } }],
    ] as const) {
      const datasetId = idFor('gj')
      const s = await importFile(db, { ...base, kind: 'parcels', file: write(name, { crs }), datasetId })
      expect(s).toMatchObject({ crs: 'vn2000:107.75', crsFrom: 'file', inserted: 2, rejected: 0 })
      const got = await bounds(datasetId)
      got.forEach((v, i) => expect(Math.abs(v - expected[i]!)).toBeLessThan(1e-9))
    }
    const after = join(tmp, 'after.geojson')
    writeFileSync(
      after,
      JSON.stringify({ type: 'FeatureCollection', features, crs: { type: 'name', properties: { name: 'EPSG:5899' } } }),
    )
    expect(await importFile(db, { ...base, kind: 'parcels', file: after, datasetId: idFor('gj') })).toMatchObject({
      crsFrom: 'file',
      inserted: 2,
    })
  })

  it('stops with one line naming --crs and --province for a file in metres with no CRS, and for a crs it does not know', async () => {
    const err = await importFile(db, {
      ...base,
      kind: 'parcels',
      file: write('metres.geojson', {}),
      datasetId: idFor('gj'),
    }).catch((e: unknown) => e)
    expect(err).toBeInstanceOf(ImportError)
    expect((err as ImportError).message).toMatch(/không ghi hệ tọa độ và có tọa độ phẳng \(mét\).*--crs.*--province/)
    expect((err as ImportError).rejections).toEqual([])
    await expect(
      importFile(db, {
        ...base,
        kind: 'parcels',
        file: write('utm-wgs.geojson', { crs: { type: 'name', properties: { name: 'EPSG:32648' } } }),
        datasetId: idFor('gj'),
      }),
    ).rejects.toThrow(/Không nhận ra hệ tọa độ trong thành phần crs của tệp GeoJSON \(EPSG:32648…\).*--crs/)
  })

  it('keeps a WGS84 file in degrees when --province is given, using the province only to fill the column', async () => {
    const wgs = features.map((f, i) => ({
      ...f,
      properties: { so_to: 18, so_thua: 200 + i, phuong_xa: 'Phường An Hải Bắc' },
      geometry: {
        type: 'Polygon',
        coordinates: [
          [
            [108.24, 16.07 + i * 0.001],
            [108.2401, 16.07 + i * 0.001],
            [108.2401, 16.0701 + i * 0.001],
            [108.24, 16.07 + i * 0.001],
          ],
        ],
      },
    }))
    const datasetId = idFor('gj')
    const s = await importFile(db, {
      ...base,
      kind: 'parcels',
      file: write('wgs.geojson', {}, wgs),
      province: 'Đà Nẵng',
      datasetId,
    })
    expect(s).toMatchObject({ crs: 'EPSG:4326', crsFrom: 'default', inserted: 2, rejected: 0 })
    expect(await db.query('select distinct province from parcels where dataset_id = $1', [datasetId])).toEqual([
      { province: 'Thành phố Đà Nẵng' },
    ])
  })
})

describe('two parcel datasets over the same land', () => {
  it('answers with the newer data date wherever both have a parcel, and lists the overlap with the datasets', async () => {
    const sheetAt = (name: string, use: string, parcelNo: number) => {
      const path = join(tmp, name)
      const ring = [
        [108.2401, 16.0601],
        [108.2403, 16.0601],
        [108.2403, 16.0603],
        [108.2401, 16.0603],
        [108.2401, 16.0601],
      ]
      writeFileSync(
        path,
        JSON.stringify({
          type: 'FeatureCollection',
          features: [
            {
              type: 'Feature',
              properties: {
                so_to: 30,
                so_thua: parcelNo,
                loai_dat: use,
                phuong_xa: 'Phường Hải Châu',
                tinh_tp: 'Đà Nẵng',
              },
              geometry: { type: 'Polygon', coordinates: [ring] },
            },
          ],
        }),
      )
      return path
    }
    const older = idFor('ovl-old')
    const newer = idFor('ovl-new')
    // The newer survey is imported first: the data date decides, not the order of import.
    await importFile(db, {
      ...base,
      date: '2025-03-01',
      kind: 'parcels',
      file: sheetAt('moi.geojson', 'TMD', 7),
      datasetId: newer,
    })
    await importFile(db, {
      ...base,
      date: '2019-05-01',
      kind: 'parcels',
      file: sheetAt('cu.geojson', 'ODT', 5),
      datasetId: older,
    })
    const [hit] = await db.query<ParcelRecord>(PARCEL_AT_SQL, parcelAtParams(16.0602, 108.2402))
    expect(hit).toMatchObject({ dataset_id: newer, parcel_no: 7 })

    const listed = await listDatasets(db)
    const lines = formatDataset(listed.find((d) => d.id === older)!)
    expect(lines.at(-1)).toBe(
      `  chồng lên ${newer} (ngày dữ liệu 2025-03-01): 1 thửa; ở đó tra cứu trả lời theo ${newer}, bộ có ngày dữ liệu mới hơn`,
    )
    expect(listed.find((d) => d.id === newer)!.overlaps).toEqual([
      { id: older, dataDate: '2019-05-01', parcels: 1, newer: false },
    ])
  })
})

describe('npm run import -- … --dry-run', () => {
  it('reads the whole file and prints the CRS, the encoding, the column mapping and the first rows as they would be stored, opening no database', () => {
    const file = join(tmp, 'chay-thu')
    writeVilisShapefile(file, sheet)
    const dataDir = join(tmp, 'data-chay-thu')
    const cli = join(import.meta.dirname, '../cli/import.ts')
    const args = [`${file}.shp`, '--kind', 'parcels', '--province', 'Đà Nẵng', '--set', 'ward=Phường An Hải Bắc']
    const res = spawnSync(process.execPath, [cli, ...args, '--source', 'VPĐKĐĐ', '--date', '2024-06-01', '--dry-run'], {
      encoding: 'utf8',
      env: { ...process.env, DATABASE_URL: '', DATA_DIR: dataDir },
    })
    expect(res.status).toBe(0)
    const out = res.stdout.split('\n')
    expect(out[0]).toBe(
      'Chạy thử, không ghi gì: bộ dữ liệu "parcels-chay-thu", hệ tọa độ vn2000:107.75 (theo tệp .prj).',
    )
    expect(out).toContain(
      'Chữ tiếng Việt đọc theo bảng mã TCVN3 (ABC) (nhận ra từ nội dung tệp), đã chuyển sang Unicode.',
    )
    expect(out).toContain('  số tờ (sheet_no): cột SoHieuToBa')
    expect(out).toContain('  tỉnh/thành phố (province): --province')
    expect(out).toContain('Đọc 2 đối tượng; sẽ ghi 2 dòng; sẽ loại 0 (hình học tự cắt được sửa khi nhập thật).')
    const first = out.find((l) => l.startsWith('  đối tượng 1: '))!
    expect(first).toContain('landUse=ODT, CLN')
    expect(first).toContain('address=Tổ 12, phường An Hải Bắc, quận Sơn Trà, TP. Đà Nẵng')
    expect(res.stdout).not.toContain('Nguyễn Văn Thành')
    expect(existsSync(dataDir)).toBe(false)
  })
})

describe('a sheet without a province imported into a database with no administrative boundaries yet', () => {
  it('says the boundaries are missing, rather than that parcels in TP.HCM lie outside Việt Nam', async () => {
    let refusal: unknown
    await db
      .transaction(async (tx) => {
        // As before the server's first start: no boundaries to place parcels by. Rolled back below.
        await tx.query(`delete from datasets where kind = 'areas'`)
        await tx.query(
          `insert into datasets (id, kind, name, source, data_date, crs) values ('no-boundaries', 'parcels', 'To 9.shp', 'thử', '2024-06-01', 'EPSG:4326')`,
        )
        await tx.query(
          `insert into parcels (dataset_id, province, ward, sheet_no, parcel_no, area_m2, geom)
           values ('no-boundaries', '', 'Phường 6', 9, 41, 120.5,
             ST_Multi(ST_Buffer(ST_SetSRID(ST_MakePoint(106.6964, 10.7812), 4326), 0.00005, 4)))`,
        )
        refusal = await placeParcels(tx, 'no-boundaries').catch((err: unknown) => err)
        throw new RolledBack()
      })
      .catch((err: unknown) => {
        if (!(err instanceof RolledBack)) throw err
      })
    expect(refusal).toBeInstanceOf(ImportError)
    expect((refusal as ImportError).message).toBe(
      '1 thửa không có tỉnh/thành phố, và cơ sở dữ liệu chưa có ranh giới hành chính để tìm tỉnh theo vị trí (máy chủ nạp ranh giới khi chạy npm start lần đầu); ghi tỉnh bằng cột tinh_tp hay --province "<tỉnh/thành phố>"',
    )
  })
})
