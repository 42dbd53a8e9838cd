import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { basename, join } from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { vn2000Proj } from '#core/geo/vn2000.ts'
import type { Database } from '../db/database.ts'
import { loadGdal } from '../gdal/gdal.ts'
import { testDb } from '../testing/test-app.ts'
import { writeVector } from './fixtures/write-vector.ts'
import { writeZip } from './fixtures/write-zip.ts'
import { crsFromPrj, formatCrs } from './crs.ts'
import { dryRunImport } from './dry-run.ts'
import { importFile, type ImportOptions } from './import-file.ts'
import { readWithGdal } from './readers/gdal.ts'
import { listLayers } from './readers/index.ts'

/*
 * Every format GDAL reads for the importer, written with GDAL itself from one small parcel sheet in
 * VN-2000 (TP.HCM, 105°45′): tờ 18, thửa 118–120, Phường Bến Nghé. Each import is checked for its rows,
 * its CRS and its text, and placed against the same sheet imported from GeoJSON with --crs, the path
 * crs.test.ts checks against cs2cs.
 */
const tmp = mkdtempSync(join(tmpdir(), 'qh-formats-'))
const created: string[] = []
const idFor = (prefix: string) => {
  const id = `${prefix}-${Date.now().toString(36)}${Math.random().toString(36).slice(2, 6)}`
  created.push(id)
  return id
}
const base = { source: 'Văn phòng đăng ký đất đai (thử nghiệm)', date: '2024-06-01', kind: 'parcels' } as const
const hcmc = { kind: 'vn2000', meridian: 105.75 } as const

const parcel = (i: number) => ({
  type: 'Feature',
  properties: {
    so_to: 18,
    so_thua: 118 + i,
    dia_chi: `${12 + i} Nguyễn Thị Minh Khai`,
    phuong_xa: 'Phường Bến Nghé',
    tinh_tp: 'TP.HCM',
    loai_dat: 'ODT',
  },
  geometry: {
    type: 'Polygon',
    coordinates: [
      [
        [603000 + i * 40, 1191000],
        [603000 + i * 40, 1191030],
        [603040 + i * 40, 1191030],
        [603040 + i * 40, 1191000],
        [603000 + i * 40, 1191000],
      ],
    ],
  },
})
const sheet = { type: 'FeatureCollection', features: [0, 1, 2].map(parcel) }

let db: Database
let reference: number[]
beforeAll(async () => {
  db = await testDb()
  const [geojson] = await writeVector(sheet, 'GeoJSON', tmp, 'reference')
  reference = await bounds(
    (await importFile(db, { ...base, file: geojson!, crs: hcmc, datasetId: idFor('ref') })).datasetId,
  )
})
afterAll(async () => {
  await db.query('delete from datasets where id = any($1::text[])', [created])
  rmSync(tmp, { recursive: true, force: true })
})

async function bounds(datasetId: string): Promise<number[]> {
  const [row] = await db.query<{ b: number[] }>(
    'select array[ST_XMin(bounds), ST_YMin(bounds), ST_XMax(bounds), ST_YMax(bounds)]::float8[] as b from datasets where id = $1',
    [datasetId],
  )
  return row!.b
}

/** Same place to 1e-7° (≈1 cm): MapInfo stores coordinates on its own fixed grid. */
function samePlace(actual: number[], expected: number[]) {
  expect(actual).toHaveLength(4)
  actual.forEach((v, i) => expect(Math.abs(v - expected[i]!)).toBeLessThan(1e-7))
}

async function importAndCheck(file: string, options: Partial<ImportOptions> = {}) {
  const s = await importFile(db, { ...base, file, datasetId: idFor('fmt'), ...options })
  const rows = await db.query<{ parcel_no: number; address: string; ward: string; province: string }>(
    'select parcel_no, address, ward, province from parcels where dataset_id = $1 order by parcel_no',
    [s.datasetId],
  )
  expect(rows.map((r) => [r.parcel_no, r.address, r.ward, r.province])).toEqual([
    [118, '12 Nguyễn Thị Minh Khai', 'Phường Bến Nghé', 'Thành phố Hồ Chí Minh'],
    [119, '13 Nguyễn Thị Minh Khai', 'Phường Bến Nghé', 'Thành phố Hồ Chí Minh'],
    [120, '14 Nguyễn Thị Minh Khai', 'Phường Bến Nghé', 'Thành phố Hồ Chí Minh'],
  ])
  return s
}

describe('importing every vector format through GDAL', () => {
  it('reads a GeoPackage with its VN-2000 SRS and places it where the GeoJSON with --crs goes', async () => {
    const [gpkg] = await writeVector(sheet, 'GPKG', tmp, 'to-18', ['-a_srs', vn2000Proj(105.75)])
    const s = await importAndCheck(gpkg!)
    expect(s).toMatchObject({ crs: 'vn2000:105.75', crsFrom: 'file', inserted: 3, rejected: 0 })
    samePlace(await bounds(s.datasetId), reference)
  })

  it('recognises VN-2000 / TM-3 by its EPSG name (EPSG:5897, meridian 105°), and places VN-2000 / UTM 48N (EPSG:3405) where the same sheet goes', async () => {
    const [gpkg] = await writeVector(sheet, 'GPKG', tmp, 'tm3', ['-a_srs', 'EPSG:5897'])
    const s = await importFile(db, { ...base, file: gpkg!, datasetId: idFor('tm3') })
    expect(s).toMatchObject({ crs: 'vn2000:105', crsFrom: 'file' })
    // The same datum on both sides: GDAL converts the grid without a datum shift.
    const [utm] = await writeVector(sheet, 'GPKG', tmp, 'utm', ['-s_srs', 'EPSG:5897', '-t_srs', 'EPSG:3405'])
    const fromUtm = await importAndCheck(utm!)
    expect(fromUtm).toMatchObject({ crs: 'EPSG:3405', crsFrom: 'file' })
    samePlace(await bounds(fromUtm.datasetId), await bounds(s.datasetId))
  })

  it('reads the VN-2000 shift GDAL writes into an ESRI datum name from a GeoPackage as from a .prj, and a GeoPackage in EPSG:9210', async () => {
    const esri =
      'PROJCS["TM3_105_45",GEOGCS["GCS_Unknown_based_on_WGS_84_ellipsoid_using_towgs84",' +
      'DATUM["D_Unknown_based_on_WGS_84_ellipsoid_using_towgs84_-191_90441429_-39_30318279_-111_45032835",SPHEROID["WGS_1984",6378137.0,298.257223563]],' +
      'PRIMEM["Greenwich",0.0],UNIT["Degree",0.0174532925199433]],PROJECTION["Transverse_Mercator"],PARAMETER["False_Easting",500000.0],' +
      'PARAMETER["False_Northing",0.0],PARAMETER["Central_Meridian",105.75],PARAMETER["Scale_Factor",0.9999],PARAMETER["Latitude_Of_Origin",0.0],UNIT["Meter",1.0]]'
    const threeParameter = 'vn2000:105.75 +towgs84=-191.90441429,-39.30318279,-111.45032835'
    expect(formatCrs(crsFromPrj(esri)!)).toBe(threeParameter)
    const [gpkg] = await writeVector(sheet, 'GPKG', tmp, 'esri-datum', ['-a_srs', esri])
    expect(await importAndCheck(gpkg!)).toMatchObject({
      crs: threeParameter,
      crsFrom: 'file',
      crsSource: 'SRS của GeoPackage',
    })
    const [qgis] = await writeVector(sheet, 'GPKG', tmp, 'qgis-9210', ['-a_srs', 'EPSG:9210'])
    const s = await importAndCheck(qgis!)
    expect(s).toMatchObject({ crs: 'vn2000:105.75', crsFrom: 'file' })
    samePlace(await bounds(s.datasetId), reference)
  })

  it('places a sheet whose .prj declares the 3-parameter shift with that shift (MapInfo\'s "VN-2000 nội bộ")', async () => {
    const threeParameter = vn2000Proj(105.75).replace(
      /towgs84=[^ ]+/,
      'towgs84=-191.90441429,-39.30318279,-111.45032835',
    )
    const [tab] = await writeVector(sheet, 'MapInfo File', tmp, 'noi-bo', ['-a_srs', threeParameter])
    const s = await importAndCheck(tab!)
    expect(s).toMatchObject({ crs: 'vn2000:105.75 +towgs84=-191.90441429,-39.30318279,-111.45032835', crsFrom: 'file' })
    // Rotations and scale left out move a Sài Gòn sheet by about a metre, no more.
    const moved = (await bounds(s.datasetId)).map((v, i) => Math.abs(v - reference[i]!))
    expect(Math.max(...moved)).toBeGreaterThan(1e-7)
    expect(Math.max(...moved)).toBeLessThan(3e-5)
  })

  it('reads MapInfo TAB with its VN-2000 CoordSys, and MIF/MID', async () => {
    const [tab] = await writeVector(sheet, 'MapInfo File', tmp, 'to-18-tab', ['-a_srs', vn2000Proj(105.75)])
    const fromTab = await importAndCheck(tab!)
    expect(fromTab).toMatchObject({ crs: 'vn2000:105.75', crsFrom: 'file' })
    samePlace(await bounds(fromTab.datasetId), reference)
    // GDAL (as WebAssembly) reports no CRS for a MIF's CoordSys line: it takes --crs or --province.
    const [mif] = await writeVector(sheet, 'MapInfo File', tmp, 'to-18-mif', [
      '-a_srs',
      vn2000Proj(105.75),
      '-dsco',
      'FORMAT=MIF',
    ])
    expect(basename(mif!)).toMatch(/\.mif$/)
    const s = await importAndCheck(mif!, { province: 'Hồ Chí Minh' })
    expect(s).toMatchObject({ crs: 'vn2000:105.75', crsFrom: 'province' })
    samePlace(await bounds(s.datasetId), reference)
  })

  it('reads a TAB sent as a .zip of its four files', async () => {
    const parts = await writeVector(sheet, 'MapInfo File', tmp, 'gui-kem', ['-a_srs', vn2000Proj(105.75)])
    expect(parts.length).toBe(4)
    const zip = join(tmp, 'Bản đồ tờ 18.zip')
    writeZip(
      zip,
      parts.map((p) => ({ name: basename(p), data: readFileSync(p) })),
    )
    const s = await importAndCheck(zip)
    expect(s).toMatchObject({ crs: 'vn2000:105.75', crsFrom: 'file' })
  })

  it('reads KML from Google Earth in WGS84, the parcel number from the placemark name and the address from its description', async () => {
    const [kml] = await writeVector(sheet, 'KML', tmp, 'google-earth', [
      '-s_srs',
      vn2000Proj(105.75),
      '-t_srs',
      'EPSG:4326',
      '-dsco',
      'NameField=so_thua',
      '-dsco',
      'DescriptionField=dia_chi',
    ])
    const s = await importAndCheck(kml!, {
      map: { parcel_no: 'Name', address: 'Description' },
      set: { sheet_no: '18', ward: 'Phường Bến Nghé', province: 'TP.HCM' },
    })
    expect(s).toMatchObject({ crs: 'EPSG:4326', crsFrom: 'file' })
  })

  it('reads a KML’s ExtendedData (SchemaData and Data) as columns with no --map, and a KMZ’s folders as layers --list-layers names', async () => {
    const ring = (i: number) =>
      [0, 1, 2, 3, 0]
        .map((k) => [106.7 + i * 0.0005 + (k === 1 || k === 2 ? 0.0003 : 0), 10.77 + (k >= 2 && k <= 3 ? 0.0003 : 0)])
        .map(([x, y]) => `${x},${y},0`)
        .join(' ')
    const placemark = (i: number, data: 'schema' | 'data') => {
      const values: Record<string, string | number> = {
        so_to: 18,
        so_thua: 118 + i,
        dia_chi: `${12 + i} Nguyễn Thị Minh Khai`,
        phuong_xa: 'Phường Bến Nghé',
        tinh_tp: 'TP.HCM',
      }
      const extended =
        data === 'schema'
          ? `<SchemaData schemaUrl="#thua">${Object.entries(values)
              .map(([k, v]) => `<SimpleData name="${k}">${v}</SimpleData>`)
              .join('')}</SchemaData>`
          : Object.entries(values)
              .map(([k, v]) => `<Data name="${k}"><value>${v}</value></Data>`)
              .join('')
      return `<Placemark><name>Thửa ${118 + i}</name><ExtendedData>${extended}</ExtendedData><Polygon><outerBoundaryIs><LinearRing><coordinates>${ring(i)}</coordinates></LinearRing></outerBoundaryIs></Polygon></Placemark>`
    }
    const kml = (body: string) =>
      `<?xml version="1.0" encoding="UTF-8"?><kml xmlns="http://www.opengis.net/kml/2.2"><Document><name>To 18</name>${body}</Document></kml>`
    const flat = join(tmp, 'thua-extended.kml')
    writeFileSync(flat, kml([0, 1, 2].map((i) => placemark(i, i === 1 ? 'data' : 'schema')).join('')))
    expect(await listLayers(flat)).toEqual(['To 18: 3 đối tượng'])
    expect(await importAndCheck(flat)).toMatchObject({ crs: 'EPSG:4326', inserted: 3, rejected: 0 })

    const folders = kml(
      `<Folder><name>Thửa đất</name>${[0, 1, 2].map((i) => placemark(i, 'schema')).join('')}</Folder>` +
        `<Folder><name>Ranh giới</name>${placemark(5, 'data')}</Folder>`,
    )
    const kmz = join(tmp, 'to-18.kmz')
    writeZip(kmz, [{ name: 'doc.kml', data: new TextEncoder().encode(folders) }])
    expect(await listLayers(kmz)).toEqual(['Thửa đất: 3 đối tượng', 'Ranh giới: 1 đối tượng'])
    await expect(importFile(db, { ...base, file: kmz })).rejects.toThrow(
      /có 2 lớp: Thửa đất \(3\), Ranh giới \(1\); chọn một bằng --layer/,
    )
    expect(await importAndCheck(kmz, { layer: 'Thửa đất' })).toMatchObject({ inserted: 3 })
  })

  it('lists the layers of a multi-layer GeoPackage, refuses to guess, and imports the one --layer names', async () => {
    const gdal = await loadGdal()
    const src = (await gdal.open(join(tmp, 'reference.geojson'))).datasets[0]!
    // The second ogr2ogr with -update adds a layer to the same in-memory GeoPackage.
    await gdal.ogr2ogr(src, ['-f', 'GPKG', '-a_srs', vn2000Proj(105.75), '-nln', 'thua_dat'], 'hai-lop')
    const out = await gdal.ogr2ogr(
      src,
      ['-f', 'GPKG', '-update', '-a_srs', vn2000Proj(105.75), '-nln', 'ranh_gioi', '-where', 'so_thua = 118'],
      'hai-lop',
    )
    await gdal.close(src)
    const file = join(tmp, 'hai-lop.gpkg')
    writeFileSync(file, await gdal.getFileBytes(out))
    gdal.Module.FS.unlink(out.local)
    expect((await listLayers(file)).sort()).toEqual([
      'ranh_gioi: 1 đối tượng, Polygon',
      'thua_dat: 3 đối tượng, Polygon',
    ])
    await expect(importFile(db, { ...base, file })).rejects.toThrow(
      /có 2 lớp: .*ranh_gioi \(1\).*; chọn một bằng --layer/,
    )
    await expect(importFile(db, { ...base, file, layer: 'khong-co' })).rejects.toThrow(/không có lớp "khong-co"/)
    const s = await importAndCheck(file, { layer: 'thua_dat' })
    samePlace(await bounds(s.datasetId), reference)
  })

  it('asks for --crs or --province, naming both, for a DXF with projected coordinates and no CRS', async () => {
    const [dxf] = await writeVector(sheet, 'DXF', tmp, 'autocad')
    await expect(importFile(db, { ...base, file: dxf! })).rejects.toThrow(
      /không ghi hệ tọa độ.*--crs vn2000:<kinh tuyến trục>.*--province/,
    )
    const r = await readWithGdal(dxf!, 'dxf', { layer: '0' })
    const rows = []
    for await (const rec of r.records) rows.push(rec)
    await r.close()
    expect(rows).toHaveLength(3)
    expect(rows[0]!.geometry).toMatchObject({ type: 'Polygon' })
    expect(JSON.stringify(rows[0]!.geometry)).toContain('603000')
  })

  it('reads a DGN (v7) sheet and its levels', async () => {
    // Written once with gdal3.js (three 40 × 30 m squares from x 100 m): its DGN writer uses the default
    // seed file, whose working units keep coordinates under ≈800 m, so this sheet is in local metres.
    const dgn = join(import.meta.dirname, '../../../tests/fixtures/to-18-microstation.dgn')
    expect(await listLayers(dgn)).toEqual(['level 0: 3 đối tượng'])
    const r = await readWithGdal(dgn, 'dgn', { layer: '0' })
    const rows = []
    for await (const rec of r.records) rows.push(rec)
    await r.close()
    expect(rows.map((x) => x.geometry?.type)).toEqual(['Polygon', 'Polygon', 'Polygon'])
    expect((rows[1]!.geometry as { coordinates: number[][][] }).coordinates[0]![0]).toEqual([140, 100])
    expect(rows[0]!.props).toMatchObject({ Level: 0 })
    await expect(readWithGdal(dgn, 'dgn', { layer: 'thua' })).rejects.toThrow(/số level/)
    await expect(importFile(db, { ...base, file: dgn, layer: '0' })).rejects.toThrow(
      /không ghi hệ tọa độ.*--crs vn2000:<kinh tuyến trục>.*--province/,
    )
  })

  /** Sets the deleted bit of the first element of `type` that stands alone (not a component of a complex element). */
  function deleteFirstElement(bytes: Buffer, type: number) {
    for (let at = 0; at + 4 <= bytes.length;) {
      if (bytes.readUInt16LE(at) === 0xffff) break
      const words = bytes.readUInt16LE(at + 2)
      if ((bytes[at + 1]! & 0x7f) === type && (bytes[at]! & 0x80) === 0) {
        bytes[at + 1]! |= 0x80
        return
      }
      at += 4 + 2 * words
    }
    throw new Error(`no element of type ${type}`)
  }

  it.each([
    ['2D', []],
    ['3D', ['-dsco', '3D=YES']],
  ])(
    'lists each level of a %s DGN with complex shapes, chains, a grouped hole, text and a deleted element with the count the import reads',
    async (name, options) => {
      const square = (x: number, y: number, d: number) => [
        [x, y],
        [x, y + d],
        [x + d, y + d],
        [x + d, y],
        [x, y],
      ]
      // More than 38 vertices: GDAL writes a complex shape (or chain) header and its components.
      const circle = (cx: number, cy: number, r: number, n: number) =>
        Array.from({ length: n + 1 }, (_, i) => [
          cx + r * Math.cos((-2 * Math.PI * (i % n)) / n),
          cy + r * Math.sin((-2 * Math.PI * (i % n)) / n),
        ])
      const at = (Level: number, geometry: unknown, more = {}) => ({
        type: 'Feature',
        properties: { Level, ...more },
        geometry,
      })
      const drawing = {
        type: 'FeatureCollection',
        features: [
          at(10, { type: 'Polygon', coordinates: [square(100, 100, 40)] }),
          at(10, { type: 'Polygon', coordinates: [circle(200, 120, 20, 60)] }),
          // A polygon with a hole is written as a cell ("grouped hole") whose shapes are on level 0.
          at(10, { type: 'Polygon', coordinates: [square(300, 100, 40), square(310, 110, 10).reverse()] }),
          at(10, {
            type: 'MultiPolygon',
            coordinates: [[square(400, 100, 20)], [square(430, 100, 20)]],
          }),
          at(20, { type: 'LineString', coordinates: circle(200, 300, 50, 80).slice(0, 70) }),
          at(20, {
            type: 'LineString',
            coordinates: [
              [0, 0],
              [50, 50],
            ],
          }),
          at(20, {
            type: 'LineString',
            coordinates: [
              [0, 60],
              [50, 90],
            ],
          }),
          at(30, { type: 'Point', coordinates: [120, 120] }, { OGR_STYLE: 'LABEL(t:"118")' }),
        ],
      }
      const [dgn] = await writeVector(drawing, 'DGN', tmp, `levels-${name}`, options)
      const bytes = readFileSync(dgn!)
      deleteFirstElement(bytes, 4)
      writeFileSync(dgn!, bytes)

      const listed = await listLayers(dgn!)
      expect(listed).toEqual([
        'level 0: 2 đối tượng',
        'level 10: 4 đối tượng',
        'level 20: 2 đối tượng',
        'level 30: 1 đối tượng',
      ])
      for (const line of listed) {
        const [, level, count] = /^level (\d+): (\d+) đối tượng$/.exec(line)!
        const report = await dryRunImport({
          ...base,
          file: dgn!,
          layer: level,
          crs: hcmc,
          set: { sheet_no: '18', parcel_no: '1', ward: 'Phường Bến Nghé' },
        })
        expect(report.read).toBe(Number(count))
      }
    },
  )
})
