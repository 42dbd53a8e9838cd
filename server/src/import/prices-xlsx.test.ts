import { mkdtempSync, rmSync } from 'node:fs'
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
      { sheet: 'Quận 1', n: 12, reason: 'thiếu giá VT1 (vt1)' },
      { sheet: 'Quận 1', n: 13, reason: 'thiếu tên đường (street_name)' },
      { sheet: 'Quận 1', n: 14, reason: 'giá VT1 không phải số: "không rõ"' },
      { sheet: 'Quận 1', n: 17, reason: 'thiếu tên đường (street_name)' },
      { sheet: 'Ghi chú', n: 1, reason: headerMissing },
    ])
    expect(formatRejections(s.rejections, s.unit, s.rejected).slice(0, 2)).toEqual([
      'Bị loại 5 dòng:',
      '  trang tính "Quận 1", dòng 12: thiếu giá VT1 (vt1)',
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
