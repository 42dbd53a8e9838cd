import { spawnSync } from 'node:child_process'
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import XLSX from '@e965/xlsx'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import type { Database } from '../db/database.ts'
import { testDb } from '../testing/test-app.ts'
import { writeShapefile, type DbfField } from './fixtures/write-shapefile.ts'
import { writeVector } from './fixtures/write-vector.ts'
import { importFile } from './import-file.ts'
import { formatSummary } from './report.ts'
import { readWithGdal } from './readers/gdal.ts'
import { listLayers } from './readers/index.ts'
import { decodeText, detectEncoding, type TextEncoding } from './vietnamese-encodings.ts'

const names = ['Nguyễn Thị Minh Khai', 'Đường Lê Lợi', 'Phường Bến Nghé']
// The same names as their bytes in each encoding (one latin1 character per byte), written out by hand
// from the published tables, not produced by the code under test: "NguyÔn ThÞ" and "Nguyeãn Thò" are
// how TCVN3 and VNI text looks in a Latin-1 editor.
const legacy: Record<Exclude<TextEncoding, 'utf-8'>, string[]> = {
  tcvn3: ['Nguy\xd4n Th\xde Minh Khai', '\xa7\xad\xeang L\xaa L\xeei', 'Ph\xad\xeang B\xd5n Ngh\xd0'],
  vni: ['Nguye\xe3n Th\xf2 Minh Khai', '\xd1\xf6\xf4\xf8ng Le\xe2 L\xf4\xefi', 'Ph\xf6\xf4\xf8ng Be\xe1n Nghe\xf9'],
  // Windows-1258 writes most tones as combining marks after the letter (0xDE tilde, 0xF2 dot below, 0xCC grave, 0xEC acute).
  'windows-1258': [
    'Nguy\xea\xden Thi\xf2 Minh Khai',
    '\xd0\xfd\xf5\xccng L\xea L\xf5\xf2i',
    'Ph\xfd\xf5\xccng B\xea\xecn Ngh\xe9',
  ],
}
const encodings = Object.keys(legacy) as Exclude<TextEncoding, 'utf-8'>[]
/** What GDAL hands over when it reads a charset it cannot convert as Latin-1: each byte as a character, in UTF-8. */
const asGdalLatin1 = (s: string) =>
  Buffer.from(s, 'latin1').toString('utf8') === s
    ? s
    : Buffer.from(Buffer.from(s, 'latin1').toString('latin1'), 'utf8').toString('latin1')

describe('Vietnamese legacy encodings', () => {
  it.each(encodings)('reads %s text as Unicode NFC', (encoding) => {
    const out = legacy[encoding].map((s) => decodeText(s, encoding))
    expect(out).toEqual(names)
    for (const s of out) expect(s).toBe(s.normalize('NFC'))
  })

  it.each(encodings)('recognises %s from its text, also when GDAL has read it as Latin-1', (encoding) => {
    expect(detectEncoding(legacy[encoding])).toBe(encoding)
    const misread = legacy[encoding].map(asGdalLatin1)
    expect(detectEncoding(misread)).toBe(encoding)
    expect(misread.map((s) => decodeText(s, encoding))).toEqual(names)
  })

  it('keeps UTF-8 text as it is, including names whose letters all fit in Latin-1', () => {
    const utf8 = [...names, 'Phú Hòa', 'Hà Đông'].map((s) => Buffer.from(s, 'utf8').toString('latin1'))
    expect(detectEncoding(utf8)).toBe('utf-8')
    expect(detectEncoding([Buffer.from('Phú Hòa', 'utf8').toString('latin1')])).toBe('utf-8')
    expect(detectEncoding(['Quan 1', 'Ben Nghe'])).toBe('utf-8')
  })
})

describe('importing legacy text', () => {
  const tmp = mkdtempSync(join(tmpdir(), 'qh-encodings-'))
  const created: string[] = []
  let db: Database
  beforeAll(async () => {
    db = await testDb()
  })
  afterAll(async () => {
    await db.query('delete from datasets where id = any($1::text[])', [created])
    rmSync(tmp, { recursive: true, force: true })
  })

  const fields: DbfField[] = [
    { name: 'so_to', type: 'N', length: 4 },
    { name: 'so_thua', type: 'N', length: 6 },
    { name: 'dia_chi', type: 'C', length: 60 },
    { name: 'phuong_xa', type: 'C', length: 40 },
    { name: 'tinh_tp', type: 'C', length: 20 },
  ]
  // Two small squares in central TP.HCM (WGS84), outer rings clockwise as shapefiles have them.
  const square = (i: number) => {
    const [x, y, d] = [106.7 + i * 0.0002, 10.775, 0.0001]
    return [
      [
        [x, y],
        [x, y + d],
        [x + d, y + d],
        [x + d, y],
        [x, y],
      ],
    ]
  }

  async function importSheet(encoding: Exclude<TextEncoding, 'utf-8'>, opts: { cpg?: string; option?: string }) {
    const [minhKhai, leLoi, benNghe] = legacy[encoding].map((s) => Buffer.from(s, 'latin1'))
    const base = join(tmp, `thua-${encoding}`)
    writeShapefile(
      base,
      fields,
      [
        {
          rings: square(0),
          attrs: {
            so_to: 18,
            so_thua: 118,
            dia_chi: Buffer.concat([Buffer.from('12 '), minhKhai!]),
            phuong_xa: benNghe!,
            tinh_tp: 'TP.HCM',
          },
        },
        {
          rings: square(1),
          attrs: {
            so_to: 18,
            so_thua: 119,
            dia_chi: Buffer.concat([Buffer.from('5 '), leLoi!]),
            phuong_xa: benNghe!,
            tinh_tp: 'TP.HCM',
          },
        },
      ],
      opts.cpg === undefined ? {} : { cpg: opts.cpg },
    )
    const datasetId = `enc-${encoding}-${Date.now().toString(36)}`
    created.push(datasetId)
    const summary = await importFile(db, {
      file: `${base}.shp`,
      kind: 'parcels',
      crs: { kind: 'wgs84' },
      source: 'Thử nghiệm bảng mã',
      date: '2024-06-01',
      datasetId,
      encoding: opts.option,
    })
    const rows = await db.query<{ address: string; ward: string }>(
      'select address, ward from parcels where dataset_id = $1 order by parcel_no',
      [datasetId],
    )
    return { summary, rows }
  }

  const expected = [
    { address: '12 Nguyễn Thị Minh Khai', ward: 'Phường Bến Nghé' },
    { address: '5 Đường Lê Lợi', ward: 'Phường Bến Nghé' },
  ]

  it('imports a TCVN3 shapefile with no .cpg, recognising the encoding from its text', async () => {
    const { summary, rows } = await importSheet('tcvn3', {})
    expect(rows).toEqual(expected)
    expect(summary.text).toEqual({ encoding: 'tcvn3', from: 'detected' })
  })

  it('imports a VNI shapefile with --encoding vni', async () => {
    const { summary, rows } = await importSheet('vni', { option: 'vni' })
    expect(rows).toEqual(expected)
    expect(summary.text).toEqual({ encoding: 'vni', from: 'option' })
  })

  it('imports a Windows-1258 shapefile by its .cpg', async () => {
    const { summary, rows } = await importSheet('windows-1258', { cpg: 'ANSI 1258' })
    expect(rows).toEqual(expected)
    expect(summary.text).toEqual({ encoding: 'windows-1258', from: 'cpg' })
  })

  it('reads TCVN3 text elements of a DGN drawing as Unicode', async () => {
    // gdal3.js writes DGN text from a LABEL style; the placeholders are then overwritten with TCVN3 bytes
    // of the same length, as MicroStation with a .VnTime font stores them.
    const placeholders = legacy.tcvn3.map((s, i) => String.fromCharCode(65 + i).repeat(s.length))
    const features = placeholders.map((t, i) => ({
      type: 'Feature',
      properties: { OGR_STYLE: `LABEL(f:".VnTime",t:"${t}")` },
      geometry: { type: 'Point', coordinates: [100 + 10 * i, 200] },
    }))
    const [dgn] = await writeVector({ type: 'FeatureCollection', features }, 'DGN', tmp, 'nhan-tcvn3')
    const bytes = readFileSync(dgn!)
    placeholders.forEach((p, i) => {
      const at = bytes.indexOf(Buffer.from(p, 'latin1'))
      expect(at).toBeGreaterThan(0)
      Buffer.from(legacy.tcvn3[i]!, 'latin1').copy(bytes, at)
    })
    writeFileSync(dgn!, bytes)
    const reader = await readWithGdal(dgn!, 'dgn', {})
    const texts: unknown[] = []
    for await (const rec of reader.records) texts.push(rec.props.Text)
    await reader.close()
    expect(texts).toEqual(names)
    expect(reader.text?.()).toEqual({ encoding: 'tcvn3', from: 'detected' })
  })

  /**
   * An AutoCAD drawing as a text DXF, its strings written as bytes: `codepage` is the $DWGCODEPAGE the
   * header declares (none, or a wrong one, as drawings typed with .VnTime or VNI-Times fonts have; from
   * AutoCAD 2007, AC1021, the text is UTF-8 whatever the code page says).
   * Two road centrelines, each on a layer named after its street, a TEXT label and a block whose ATTRIB
   * holds the ward.
   */
  const dxfDrawing = (version: string, codepage: string | null, [minhKhai, leLoi, benNghe]: string[]) => {
    const group = (pairs: [number, string | number][]) => pairs.map(([c, v]) => `${c}\n${v}\n`).join('')
    const line = (layer: string, y: number): [number, string | number][] => [
      [0, 'LINE'],
      [8, layer],
      [10, 603000],
      [20, y],
      [30, 0],
      [11, 603200],
      [21, y],
      [31, 0],
    ]
    const text = group([
      [0, 'SECTION'],
      [2, 'HEADER'],
      [9, '$ACADVER'],
      [1, version],
      ...(codepage
        ? ([
            [9, '$DWGCODEPAGE'],
            [3, codepage],
          ] as [number, string][])
        : []),
      [0, 'ENDSEC'],
      [0, 'SECTION'],
      [2, 'BLOCKS'],
      [0, 'BLOCK'],
      [8, '0'],
      [2, 'NHAN'],
      [70, 2],
      [10, 0],
      [20, 0],
      [30, 0],
      [3, 'NHAN'],
      [0, 'ATTDEF'],
      [8, '0'],
      [10, 0],
      [20, 0],
      [30, 0],
      [40, 2],
      [1, ''],
      [3, 'Phuong'],
      [2, 'PHUONG'],
      [70, 0],
      [0, 'ENDBLK'],
      [8, '0'],
      [0, 'ENDSEC'],
      [0, 'SECTION'],
      [2, 'ENTITIES'],
      ...line(minhKhai!, 1191000),
      ...line(leLoi!, 1191100),
      [0, 'TEXT'],
      [8, 'GHI_CHU'],
      [10, 603050],
      [20, 1191002],
      [30, 0],
      [40, 2],
      [1, `${minhKhai!}`],
      [0, 'INSERT'],
      [8, 'GHI_CHU'],
      [66, 1],
      [2, 'NHAN'],
      [10, 603050],
      [20, 1191050],
      [30, 0],
      [0, 'ATTRIB'],
      [8, 'GHI_CHU'],
      [10, 603050],
      [20, 1191050],
      [30, 0],
      [40, 2],
      [1, benNghe!],
      [2, 'PHUONG'],
      [70, 0],
      [0, 'SEQEND'],
      [8, 'GHI_CHU'],
      [0, 'ENDSEC'],
      [0, 'EOF'],
    ])
    return Buffer.from(text, 'latin1')
  }

  it.each([
    ['tcvn3', 'AC1009', null, undefined],
    ['tcvn3', 'AC1009', 'ANSI_1252', undefined],
    ['tcvn3', 'AC1009', null, 'tcvn3'],
    ['vni', 'AC1009', 'ANSI_1252', undefined],
    ['vni', 'AC1009', null, 'vni'],
    ['windows-1258', 'AC1015', 'ANSI_1258', undefined],
    ['utf-8', 'AC1021', 'ANSI_1258', undefined],
  ] as const)(
    'imports the streets of a DXF drawing typed in %s (%s, code page %s, --encoding %s) as Unicode, and reads its labels and block attributes the same way',
    async (encoding, version, codepage, option) => {
      const file = join(tmp, `duong-${encoding}-${version}-${codepage ?? 'none'}-${option ?? 'found'}.dxf`)
      const strings =
        encoding === 'utf-8' ? names.map((n) => Buffer.from(n, 'utf8').toString('latin1')) : legacy[encoding]
      writeFileSync(file, dxfDrawing(version, codepage, strings))
      const datasetId = `enc-dxf-${Date.now().toString(36)}${Math.random().toString(36).slice(2, 6)}`
      created.push(datasetId)
      const summary = await importFile(db, {
        file,
        kind: 'roads',
        crs: { kind: 'vn2000', meridian: 105.75 },
        source: 'Bản vẽ giao thông (thử nghiệm)',
        date: '2024-06-01',
        datasetId,
        map: { name: 'Layer' },
        set: { width_m: '16', province: 'TP.HCM' },
        ...(option ? { encoding: option } : {}),
      })
      expect(
        await db.query('select name from streets where dataset_id = $1 order by ST_YMin(geom)', [datasetId]),
      ).toEqual([{ name: names[0] }, { name: names[1] }])
      const said = { tcvn3: 'TCVN3 (ABC)', vni: 'VNI', 'windows-1258': 'Windows-1258', 'utf-8': null }[encoding]
      expect(formatSummary(summary).filter((l) => l.startsWith('Chữ tiếng Việt'))).toEqual(
        said
          ? [
              `Chữ tiếng Việt đọc theo bảng mã ${said} (${option ? 'theo --encoding' : 'nhận ra từ nội dung tệp'}), đã chuyển sang Unicode.`,
            ]
          : [],
      )
      // The label and the attribute are points, which a street is not: refused, each with its number.
      expect(summary.rejections.map((r) => r.n)).toEqual([3, 4])

      const reader = await readWithGdal(file, 'dxf', { layer: 'GHI_CHU', encoding: option })
      const labels: unknown[] = []
      for await (const rec of reader.records) labels.push(rec.props.Text)
      await reader.close()
      expect(labels).toEqual([names[0], names[2]])
      expect(await listLayers(file)).toEqual(
        expect.arrayContaining([`layer ${names[0]}: 1 đối tượng`, `layer ${names[1]}: 1 đối tượng`]),
      )
    },
  )

  // TCVN3 text that a tool read as Latin-1 and saved as Unicode, as it reaches GeoJSON, GeoPackage and workbooks.
  const mojibake = legacy.tcvn3
  const place = (i: number) => ({
    type: 'Polygon',
    coordinates: [
      [
        [106.7 + i * 0.001, 10.77],
        [106.7005 + i * 0.001, 10.77],
        [106.7005 + i * 0.001, 10.7705],
        [106.7 + i * 0.001, 10.77],
      ],
    ],
  })
  const mojibakeSheet = {
    type: 'FeatureCollection',
    features: [0, 1].map((i) => ({
      type: 'Feature',
      properties: { so_to: 18, so_thua: 118 + i, dia_chi: mojibake[i], phuong_xa: mojibake[2], tinh_tp: 'TP.HCM' },
      geometry: place(i),
    })),
  }
  const addresses = async (datasetId: string) =>
    (
      await db.query<{ address: string; ward: string }>(
        'select address, ward from parcels where dataset_id = $1 order by parcel_no',
        [datasetId],
      )
    ).map((r) => [r.address, r.ward])
  const decoded = [
    [names[0], names[2]],
    [names[1], names[2]],
  ]
  const importAs = async (file: string, encoding?: string) => {
    const datasetId = `enc-${Date.now().toString(36)}${Math.random().toString(36).slice(2, 6)}`
    created.push(datasetId)
    const s = await importFile(db, {
      file,
      kind: 'parcels',
      source: 'Thử nghiệm bảng mã',
      date: '2024-06-01',
      datasetId,
      ...(encoding ? { encoding } : {}),
    })
    return { s, rows: await addresses(datasetId) }
  }

  it('recognises TCVN3 stored as Latin-1 letters in a GeoJSON, with or without --encoding, and leaves real Unicode as it is', async () => {
    const file = join(tmp, 'mojibake.geojson')
    writeFileSync(file, JSON.stringify(mojibakeSheet))
    const found = await importAs(file)
    expect(found.rows).toEqual(decoded)
    expect(found.s.text).toEqual({ encoding: 'tcvn3', from: 'detected' })
    const given = await importAs(file, 'tcvn3')
    expect(given.rows).toEqual(decoded)
    expect(given.s.text).toEqual({ encoding: 'tcvn3', from: 'option' })

    const unicode = join(tmp, 'unicode.geojson')
    const plain = structuredClone(mojibakeSheet)
    plain.features.forEach((f, i) => Object.assign(f.properties, { dia_chi: names[i], phuong_xa: names[2] }))
    writeFileSync(unicode, JSON.stringify(plain))
    const u = await importAs(unicode)
    expect(u.rows).toEqual(decoded)
    expect(u.s.text).toEqual({ encoding: 'utf-8', from: 'detected' })
  })

  it('recognises TCVN3 in a GeoPackage, which is UTF-8 by definition but may hold Latin-1 letters', async () => {
    const [gpkg] = await writeVector(mojibakeSheet, 'GPKG', tmp, 'mojibake', ['-a_srs', 'EPSG:4326'])
    const { s, rows } = await importAs(gpkg!)
    expect(rows).toEqual(decoded)
    expect(s.text).toEqual({ encoding: 'tcvn3', from: 'detected' })
  })

  it.each([
    ['KML', 'KML', []],
    ['MapInfo TAB', 'MapInfo File', ['-a_srs', 'EPSG:4326']],
  ])('recognises TCVN3 read as Latin-1 letters in a %s file', async (_name, driver, options) => {
    const [file] = await writeVector(mojibakeSheet, driver, tmp, `mojibake-${driver.replace(/\W/g, '')}`, options)
    const { s, rows } = await importAs(file!)
    expect(rows).toEqual(decoded)
    expect(s.text).toEqual({ encoding: 'tcvn3', from: 'detected' })
  })

  it('recognises TCVN3 typed into an Excel price table (a .VnTime font), and honours --encoding there too', async () => {
    const file = join(tmp, 'bang-gia-vntime.xlsx')
    const sheet = XLSX.utils.aoa_to_sheet([
      ['tinh_tp', 'ten_duong', 'vt1'],
      ['TP.HCM', mojibake[1], 1000],
      ['TP.HCM', mojibake[0], 2000],
    ])
    const book = XLSX.utils.book_new()
    XLSX.utils.book_append_sheet(book, sheet, 'Quận 1')
    writeFileSync(file, XLSX.write(book, { type: 'buffer', bookType: 'xlsx' }) as Buffer)
    for (const encoding of [undefined, 'tcvn3'] as const) {
      const datasetId = `enc-xlsx-${encoding ?? 'found'}-${Date.now().toString(36)}`
      created.push(datasetId)
      const s = await importFile(db, {
        file,
        kind: 'prices',
        source: 'Thử',
        date: '2024-06-01',
        datasetId,
        ...(encoding ? { encoding } : {}),
      })
      expect(s.text).toEqual({ encoding: 'tcvn3', from: encoding ? 'option' : 'detected' })
      expect(
        await db.query('select street_name from price_rows where dataset_id = $1 order by vt1', [datasetId]),
      ).toEqual([{ street_name: names[1] }, { street_name: names[0] }])
    }
  })

  it('recognises a CSV in Windows-1258 or TCVN3 bytes without --encoding, and still refuses bytes that read as no encoding', async () => {
    const csv = (name: string, text: string) => {
      const file = join(tmp, name)
      writeFileSync(file, Buffer.from(`tinh_tp,ten_duong,vt1\nTP.HCM,${text},1000\n`, 'latin1'))
      return file
    }
    for (const encoding of ['tcvn3', 'windows-1258'] as const) {
      const datasetId = `enc-csv-${encoding}-${Date.now().toString(36)}`
      created.push(datasetId)
      const s = await importFile(db, {
        file: csv(`gia-${encoding}.csv`, legacy[encoding][1]!),
        kind: 'prices',
        source: 'Thử',
        date: '2024-06-01',
        datasetId,
      })
      expect(s.text).toEqual({ encoding, from: 'detected' })
      expect(await db.query('select street_name from price_rows where dataset_id = $1', [datasetId])).toEqual([
        { street_name: names[1] },
      ])
    }
    await expect(
      importFile(db, {
        file: csv('gia-la.csv', '\xff\xfe\xfd\xfc \xf0\xf1'),
        kind: 'prices',
        source: 'Thử',
        date: '2024-06-01',
      }),
    ).rejects.toThrow(/không phải utf-8.*--encoding tcvn3\|vni\|windows-1258/)
  })

  it('stops with one Vietnamese line and exit code 1 on an unknown --encoding, before opening the database', () => {
    const file = join(tmp, 'mot-thua.geojson')
    writeFileSync(file, JSON.stringify({ type: 'FeatureCollection', features: [] }))
    const cli = join(import.meta.dirname, '../cli/import.ts')
    const args = [cli, file, '--kind', 'parcels', '--source', 'Thử', '--date', '2024-06-01', '--encoding', 'koi8-r']
    const res = spawnSync(process.execPath, args, {
      encoding: 'utf8',
      env: { ...process.env, DATABASE_URL: '', DATA_DIR: join(tmp, 'data') },
    })
    expect(res.status).toBe(1)
    expect(res.stderr).toBe(
      'Không nhập được: Không biết bảng mã "koi8-r"; dùng --encoding utf-8|tcvn3|vni|windows-1258\n',
    )
  })
})
