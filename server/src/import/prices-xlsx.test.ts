import { mkdtempSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import type { Database } from '../db/database.ts'
import { testDb } from '../testing/test-app.ts'
import { parseImportArgs } from './args.ts'
import { writeXlsx, type XlsxSheet } from './fixtures/write-xlsx.ts'
import { importFile } from './import-file.ts'
import { splitSegment } from './kinds/prices.ts'
import { formatRejections } from './report.ts'

/*
 * A price table as a province publishes it: letterhead and title rows, a two-row header with
 * "Đoạn đường" over Từ | Đến and "Giá đất" over VT1–VT4 (merged), the street merged down over its
 * segments, a section heading, a note below, one sheet per district, prices in thousand đồng.
 */
const quan1: XlsxSheet = {
  name: 'Quận 1',
  rows: [
    ['ỦY BAN NHÂN DÂN', null, null, null, 'CỘNG HÒA XÃ HỘI CHỦ NGHĨA VIỆT NAM'],
    ['THÀNH PHỐ HỒ CHÍ MINH', null, null, null, 'Độc lập - Tự do - Hạnh phúc'],
    [],
    ['BẢNG GIÁ ĐẤT Ở TẠI ĐÔ THỊ - QUẬN 1'],
    ['(Ban hành kèm theo Quyết định số 02/2026/QĐ-UBND ngày 15/01/2026)'],
    [null, null, null, null, null, null, null, 'Đơn vị tính: 1.000 đồng/m²'],
    ['STT', 'Tên đường', 'Đoạn đường', null, 'Giá đất', null, null, null],
    [null, null, 'Từ', 'Đến', 'VT1', 'VT2', 'VT3', 'VT4'],
    [1, 'Nguyễn Huệ', 'Lê Lợi', 'Tôn Đức Thắng', 687200, 343600, 274880, 219904],
    [null, null, 'Tôn Đức Thắng', 'Bến Bạch Đằng', 600000, 300000, 240000, 192000],
    [2, 'Lê Lợi', 'Trọn đường', null, '500.000', 250000, null, null],
    ['II', 'ĐƯỜNG NỘI BỘ KHU DÂN CƯ'],
    [3, null, 'Khu dân cư Bến Nghé', null, 90000, 45000, null, null],
    [4, 'Pasteur', 'Từ Lê Lợi đến Nguyễn Du', null, 'không rõ', null, null, null],
    [null, null, 'Nguyễn Du', 'Điện Biên Phủ', 150000.5, 75000, 60000, 48000],
    [],
    ['Ghi chú: VT1 áp dụng cho thửa đất có mặt tiền đường'],
  ],
  merges: [
    'A4:H4',
    'A5:H5',
    'A7:A8',
    'B7:B8',
    'C7:D7',
    'E7:H7',
    'A9:A10',
    'B9:B10',
    'C11:D11',
    'B12:H12',
    'A14:A15',
    'B14:B15',
    'C14:D14',
    'A17:H17',
  ],
}
const quan3: XlsxSheet = {
  name: 'Quận 3',
  rows: [
    ['BẢNG GIÁ ĐẤT Ở TẠI ĐÔ THỊ - QUẬN 3'],
    ['Đơn vị tính: 1.000 đồng/m²'],
    ['Tên đường', 'Đoạn đường', 'VT1', 'VT2', 'VT3', 'VT4'],
    ['Võ Văn Tần', 'Từ Cách Mạng Tháng Tám - Đến Trương Định', 210000, 105000, 84000, 67200],
    [null, 'TỪ Trương Định ĐẾN Hai Bà Trưng', 230000, 115000, 92000, 73600],
  ],
  merges: ['A1:F1', 'A4:A5'],
}
const notes: XlsxSheet = {
  name: 'Ghi chú',
  rows: [['Bảng giá áp dụng từ ngày 01/01/2026'], ['Giá đất tính theo vị trí thửa đất']],
}

const tmp = mkdtempSync(join(tmpdir(), 'qh-xlsx-'))
const created: string[] = []
const idFor = () => {
  const id = `prices-xlsx-${Date.now().toString(36)}${Math.random().toString(36).slice(2, 6)}`
  created.push(id)
  return id
}
const base = {
  kind: 'prices',
  source: 'QĐ 02/2026/QĐ-UBND',
  date: '2026-01-01',
  province: 'TP.HCM',
  priceUnit: 1000,
} as const

let db: Database
let workbook: string
beforeAll(async () => {
  db = await testDb()
  workbook = join(tmp, 'Bang gia dat 2026 (kem QD 02).xlsx')
  writeXlsx(workbook, [quan1, quan3, notes])
})
afterAll(async () => {
  await db.query('delete from datasets where id = any($1::text[])', [created])
  rmSync(tmp, { recursive: true, force: true })
})

type PriceRow = {
  province: string
  street_name: string
  segment_from: string
  segment_to: string
  year: number
  vt1: number
  vt2: number | null
  vt3: number | null
  vt4: number | null
}
const rowsOf = (datasetId: string) =>
  db.query<PriceRow>(
    `select province, street_name, segment_from, segment_to, year, vt1::float8 as vt1, vt2::float8 as vt2, vt3::float8 as vt3, vt4::float8 as vt4
     from price_rows where dataset_id = $1 order by id`,
    [datasetId],
  )

const headerMissing =
  'không thấy dòng tiêu đề bảng (ví dụ "Tên đường", "Từ", "Đến", "VT1") trong 30 dòng đầu; bỏ qua cả trang tính'
const hcm = 'Thành phố Hồ Chí Minh'

describe('price tables from Excel', () => {
  it('reads every sheet below its title rows, carries merged street names down, splits "Từ … đến …" and reports each skipped row by sheet and row', async () => {
    const datasetId = idFor()
    const s = await importFile(db, { ...base, file: workbook, datasetId })
    expect(s).toMatchObject({ read: 11, inserted: 6, rejected: 5, unit: 'dòng' })
    expect(
      (await rowsOf(datasetId)).map((r) => [
        r.province,
        r.street_name,
        r.segment_from,
        r.segment_to,
        r.year,
        r.vt1,
        r.vt2,
        r.vt3,
        r.vt4,
      ]),
    ).toEqual([
      [hcm, 'Nguyễn Huệ', 'Lê Lợi', 'Tôn Đức Thắng', 2026, 687_200_000, 343_600_000, 274_880_000, 219_904_000],
      [hcm, 'Nguyễn Huệ', 'Tôn Đức Thắng', 'Bến Bạch Đằng', 2026, 600_000_000, 300_000_000, 240_000_000, 192_000_000],
      [hcm, 'Lê Lợi', 'Trọn đường', '', 2026, 500_000_000, 250_000_000, null, null],
      [hcm, 'Pasteur', 'Nguyễn Du', 'Điện Biên Phủ', 2026, 150_000_500, 75_000_000, 60_000_000, 48_000_000],
      [hcm, 'Võ Văn Tần', 'Cách Mạng Tháng Tám', 'Trương Định', 2026, 210_000_000, 105_000_000, 84_000_000, 67_200_000],
      [hcm, 'Võ Văn Tần', 'Trương Định', 'Hai Bà Trưng', 2026, 230_000_000, 115_000_000, 92_000_000, 73_600_000],
    ])
    expect(s.rejections).toEqual([
      {
        sheet: 'Quận 1',
        n: 12,
        reason: 'dòng tiêu đề mục "ĐƯỜNG NỘI BỘ KHU DÂN CƯ" không có giá, không có dòng nào thuộc nó',
      },
      { sheet: 'Quận 1', n: 13, reason: 'thiếu tên đường (street_name)' },
      { sheet: 'Quận 1', n: 14, reason: 'giá VT1 không phải số: "không rõ"' },
      { sheet: 'Quận 1', n: 17, reason: 'thiếu tên đường (street_name)' },
      { sheet: 'Ghi chú', n: 1, reason: headerMissing },
    ])
    expect(formatRejections(s.rejections, s.unit, s.rejected).slice(0, 2)).toEqual([
      'Bị loại 5 dòng:',
      '  trang tính "Quận 1", dòng 12: dòng tiêu đề mục "ĐƯỜNG NỘI BỘ KHU DÂN CƯ" không có giá, không có dòng nào thuộc nó',
    ])
  })

  it('imports only the sheet --sheet names, with --map for a header the importer does not know', async () => {
    const file = join(tmp, 'gia-dat-phuong.xlsx')
    const sheet = (name: string, street: string): XlsxSheet => ({
      name,
      rows: [['BẢNG GIÁ ĐẤT'], ['Tuyến đường', 'Từ', 'Đến', 'Giá VT1'], [street, 'Đầu đường', 'Cuối đường', 120000]],
    })
    writeXlsx(file, [sheet('Phường Sài Gòn', 'Hàm Nghi'), sheet('Phường Bến Thành', 'Lê Thánh Tôn')])
    const datasetId = idFor()
    const s = await importFile(db, {
      ...base,
      file,
      datasetId,
      sheet: 'phường bến thành',
      map: { street_name: 'Tuyến đường' },
    })
    expect(s).toMatchObject({ read: 1, inserted: 1, rejected: 0 })
    expect((await rowsOf(datasetId)).map((r) => [r.street_name, r.segment_from, r.segment_to, r.vt1])).toEqual([
      ['Lê Thánh Tôn', 'Đầu đường', 'Cuối đường', 120_000_000],
    ])
    await expect(importFile(db, { ...base, file, sheet: 'Phường 1' })).rejects.toThrow(
      'Tệp gia-dat-phuong.xlsx không có trang tính "Phường 1"; các trang: Phường Sài Gòn, Phường Bến Thành',
    )
  })

  it('takes --sheet on the command line', () => {
    const parsed = parseImportArgs([
      'bang-gia.xlsx',
      '--kind',
      'prices',
      '--sheet',
      'Quận 3',
      '--source',
      'QĐ 02/2026',
      '--date',
      '2026-01-01',
      '--price-unit',
      '1000',
    ])
    expect(parsed).toMatchObject({
      options: { file: 'bang-gia.xlsx', kind: 'prices', sheet: 'Quận 3', priceUnit: 1000 },
    })
  })

  it('splits one "Đoạn đường" cell into its two ends, and keeps any other text as the start', () => {
    expect(splitSegment('Từ Lê Lợi đến Hàm Nghi')).toEqual({ from: 'Lê Lợi', to: 'Hàm Nghi' })
    expect(splitSegment('từ Ngã tư Phú Nhuận, đến Cầu Kiệu')).toEqual({ from: 'Ngã tư Phú Nhuận', to: 'Cầu Kiệu' })
    expect(splitSegment('Trọn đường')).toEqual({ from: 'Trọn đường', to: '' })
  })
})

const REAL_WORKBOOK = join(import.meta.dirname, 'fixtures/real/Bang gia dat Nha nuoc.xls')

describe('the TP.HCM price table as published (Decision 79/2024, Excel 97)', () => {
  it('reads every district sheet of the .xls with its decision, unit line, district, group headings and folded line breaks, with no --map or --price-unit', async () => {
    const datasetId = idFor()
    const s = await importFile(db, {
      file: REAL_WORKBOOK,
      kind: 'prices',
      datasetId,
      source: 'Quyết định 79/2024/QĐ-UBND',
      date: '2024-10-31',
      province: 'TP. Hồ Chí Minh',
    })
    expect(s).toMatchObject({ inserted: 4607, rejected: 4 })
    // The empty first sheet is reported, and so are Thủ Đức's three section lines ("I. QUẬN 2 (CŨ)").
    expect(s.rejections.map((r) => [r.sheet, r.n])).toEqual([
      ['Kangatang', 1],
      ['Thủ Đức', 9],
      ['Thủ Đức', 585],
      ['Thủ Đức', 799],
    ])
    const sheets = await db.query<{
      sheet: string
      district: string
      decision_no: string
      decision_date: string
      n: number
    }>(
      `select sheet, district, decision_no, decision_date::text as decision_date, count(*)::int as n
       from price_rows where dataset_id = $1 group by 1, 2, 3, 4 order by 1`,
      [datasetId],
    )
    expect(sheets).toHaveLength(22)
    expect(sheets.every((r) => r.decision_no === '79/2024/QĐ-UBND' && r.decision_date === '2024-10-21')).toBe(true)
    expect(sheets.find((r) => r.sheet === 'Thủ Đức')?.district).toBe('Thành phố Thủ Đức')
    expect(sheets.find((r) => r.sheet === 'Củ Chi')?.district).toBe('Huyện Củ Chi')
    const row = async (sheet: string, n: number) =>
      (
        await db.query<{ street_name: string; segment_from: string; segment_to: string; vt1: number }>(
          `select street_name, segment_from, segment_to, vt1::float8 as vt1 from price_rows where dataset_id = $1 and sheet = $2 and row_no = $3`,
          [datasetId, sheet, n],
        )
      )[0]
    // Thousand đồng by the unit line; a segment row under its street.
    expect(await row('Quận 1', 80)).toEqual({
      street_name: 'NGUYỄN THỊ MINH KHAI',
      segment_from: 'CẦU THỊ NGHÈ',
      segment_to: 'HAI BÀ TRƯNG',
      vt1: 286_000_000,
    })
    expect(await row('Quận 1', 81)).toMatchObject({ street_name: 'NGUYỄN THỊ MINH KHAI', segment_from: 'HAI BÀ TRƯNG' })
    // A group heading (price 0) names its sub-rows; a line break inside a name is one space.
    expect(await row('Quận 7', 30)).toMatchObject({
      street_name: 'ĐƯỜNG NỘI BỘ KHU DÂN CƯ TÂN QUY ĐÔNG – ĐƯỜNG >= 16M',
      vt1: 64_800_000,
    })
    expect(await row('Quận 7', 29)).toBeUndefined()
    expect((await row('Quận 4', 12))?.street_name).toBe('ĐƯỜNG NỘI BỘ CHUNG CƯ PHƯỜNG 3')
  })

  it('stops with one line naming --province when neither the file nor the command says the province', async () => {
    await expect(
      importFile(db, {
        file: REAL_WORKBOOK,
        kind: 'prices',
        sheet: 'Quận 1',
        source: 'QĐ 79/2024',
        date: '2024-10-31',
      }),
    ).rejects.toThrow(
      'Bảng giá không ghi tỉnh/thành phố; thêm --province "<tỉnh/thành phố>" (ví dụ --province "TP. Hồ Chí Minh")',
    )
  })

  it('imports a Hà Nội table written tuyen_duong, quan_huyen, vi_tri_1…vi_tri_4 with no --map', async () => {
    const streets = [
      ['Hàng Đào', 'Hoàn Kiếm', 'Đầu đường', 'Cuối đường'],
      ['Hàng Ngang', 'Hoàn Kiếm', 'Đầu đường', 'Cuối đường'],
      ['Đinh Tiên Hoàng', 'Hoàn Kiếm', 'Đầu đường', 'Cuối đường'],
      ['Lê Thái Tổ', 'Hoàn Kiếm', 'Đầu đường', 'Cuối đường'],
      ['Tràng Tiền', 'Hoàn Kiếm', 'Đầu đường', 'Cuối đường'],
      ['Bà Triệu', 'Hoàn Kiếm', 'Tràng Thi', 'Trần Hưng Đạo'],
      ['Bà Triệu', 'Hai Bà Trưng', 'Trần Hưng Đạo', 'Đại Cồ Việt'],
      ['Kim Mã', 'Ba Đình', 'Nguyễn Thái Học', 'Cầu Giấy'],
      ['Điện Biên Phủ', 'Ba Đình', 'Đầu đường', 'Cuối đường'],
      ['Phan Đình Phùng', 'Ba Đình', 'Đầu đường', 'Cuối đường'],
      ['Xã Đàn', 'Đống Đa', 'Đầu đường', 'Cuối đường'],
      ['Tây Sơn', 'Đống Đa', 'Ngã Tư Sở', 'Tôn Đức Thắng'],
      ['Cầu Giấy', 'Cầu Giấy', 'Đầu đường', 'Cuối đường'],
      ['Láng Hạ', 'Đống Đa', 'Đầu đường', 'Cuối đường'],
      ['Thái Hà', 'Đống Đa', 'Đầu đường', 'Cuối đường'],
      ['Nguyễn Chí Thanh', 'Đống Đa', 'Đầu đường', 'Cuối đường'],
      ['Trần Duy Hưng', 'Cầu Giấy', 'Đầu đường', 'Cuối đường'],
    ]
    const file = join(tmp, 'bang-gia-ha-noi.csv')
    writeFileSync(
      file,
      [
        'tuyen_duong,quan_huyen,tu,den,vi_tri_1,vi_tri_2,vi_tri_3,vi_tri_4',
        ...streets.map(([street, district, from, to], i) => {
          const vt1 = 100_000 + i * 5_000
          return `${street},${district},${from},${to},${vt1},${vt1 * 0.6},${vt1 * 0.5},${vt1 * 0.4}`
        }),
      ].join('\n'),
    )
    const datasetId = idFor()
    const s = await importFile(db, {
      file,
      kind: 'prices',
      datasetId,
      source: 'Bảng giá đất Hà Nội',
      date: '2025-01-01',
      province: 'Hà Nội',
      priceUnit: 1000,
    })
    expect(s).toMatchObject({ read: 17, inserted: 17, rejected: 0 })
    const [first] = await db.query(
      `select province, district, street_name, segment_from, segment_to, vt1::float8 as vt1, vt4::float8 as vt4 from price_rows where dataset_id = $1 order by row_no limit 1`,
      [datasetId],
    )
    expect(first).toEqual({
      province: 'Thành phố Hà Nội',
      district: 'Hoàn Kiếm',
      street_name: 'Hàng Đào',
      segment_from: 'Đầu đường',
      segment_to: 'Cuối đường',
      vt1: 100_000_000,
      vt4: 40_000_000,
    })
  })
})

describe('land-price adjustment coefficients (K)', () => {
  it('imports K by province, year, area and street from a CSV', async () => {
    const file = join(tmp, 'he-so-k.csv')
    writeFileSync(
      file,
      [
        'tinh_tp,nam,khu_vuc,tuyen_duong,he_so_k',
        'TP.HCM,2025,Quận 3,,1.2',
        'TP.HCM,2025,,Nguyễn Thị Minh Khai,1.35',
      ].join('\n'),
    )
    const datasetId = idFor()
    const s = await importFile(db, {
      file,
      kind: 'price-coefficients',
      datasetId,
      source: 'QĐ hệ số K',
      date: '2025-01-01',
    })
    expect(s).toMatchObject({ read: 2, inserted: 2, rejected: 0 })
    expect(
      await db.query(
        `select province, year, area, street, k from price_coefficients where dataset_id = $1 order by id`,
        [datasetId],
      ),
    ).toEqual([
      { province: hcm, year: 2025, area: 'Quận 3', street: '', k: 1.2 },
      { province: hcm, year: 2025, area: '', street: 'Nguyễn Thị Minh Khai', k: 1.35 },
    ])
  })
})
