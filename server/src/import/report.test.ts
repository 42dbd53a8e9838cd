import { describe, expect, it } from 'vitest'
import { createProgressBar, formatRejections, formatSummary } from './report.ts'

const progress = { read: 1500, inserted: 1000, rejected: 2, done: 50, total: 100 }

describe('createProgressBar', () => {
  it('redraws one line with \\r on a terminal', () => {
    const writes: string[] = []
    let t = 0
    const bar = createProgressBar({ isTTY: true, columns: 100, write: (s: string) => writes.push(s) }, () => t)
    t = 1000
    bar.update(progress)
    t = 1050
    bar.update({ ...progress, done: 60 })
    t = 1200
    bar.update({ ...progress, done: 100 })
    bar.finish()
    expect(writes).toHaveLength(3)
    expect(writes[0]).toMatch(/^\r\[█+░+\] 50% · đã đọc 1\.500 · đã ghi 1\.000 · loại 2 · 1\.500\/s/)
    expect(writes[1]).toMatch(/^\r\[█+\] 100%/)
    expect(writes[2]).toBe('\n')
  })

  it('writes plain lines, a few seconds apart, when the output is not a terminal', () => {
    const writes: string[] = []
    let t = 0
    const bar = createProgressBar({ isTTY: false, write: (s: string) => writes.push(s) }, () => t)
    for (t = 1000; t <= 12_000; t += 500) bar.update(progress)
    bar.finish()
    expect(writes.length).toBe(3)
    for (const w of writes) expect(w).toMatch(/^Đang nhập: 50% .*\n$/)
    expect(writes.join('')).not.toContain('\r')
  })
})

describe('formatSummary', () => {
  it('lists counts, speed and the first 20 rejections', () => {
    const rejections = Array.from({ length: 25 }, (_, i) => ({ n: i + 2, reason: 'thiếu số thửa (parcel_no)' }))
    const lines = formatSummary({
      datasetId: 'parcels-q1',
      kind: 'parcels',
      crs: 'vn2000:105.75',
      crsFrom: 'file',
      crsSource: 'tệp .prj',
      replaced: true,
      unit: 'đối tượng',
      read: 1025,
      inserted: 1000,
      repaired: 3,
      rejected: 25,
      rejections,
      warnings: [],
      personalColumns: [],
      dataVersion: 7,
      seconds: 2,
      rowsPerSecond: 500,
    })
    expect(lines[0]).toBe('Đã thay bộ dữ liệu "parcels-q1" (parcels), hệ tọa độ vn2000:105.75 (theo tệp .prj).')
    expect(lines[1]).toBe('Đọc 1.025 đối tượng; ghi 1.000 dòng; sửa hình học 3; loại 25.')
    expect(lines[2]).toContain('500 dòng/s')
    expect(lines[3]).toBe('Bị loại 25 đối tượng (20 đối tượng đầu):')
    expect(lines.slice(4)).toHaveLength(20)
    expect(lines[4]).toBe('  đối tượng 2: thiếu số thửa (parcel_no)')
  })

  it('names where the CRS came from by the file it is written in, says none for a price table, and names the owner columns left out', () => {
    const base = {
      datasetId: 'x',
      kind: 'parcels' as const,
      crs: 'vn2000:105.75',
      replaced: false,
      unit: 'đối tượng' as const,
      read: 1,
      inserted: 1,
      repaired: 0,
      rejected: 0,
      rejections: [],
      warnings: [],
      personalColumns: [],
      dataVersion: 1,
      seconds: 1,
      rowsPerSecond: 1,
    }
    expect(formatSummary({ ...base, crsFrom: 'file', crsSource: 'SRS của GeoPackage' })[0]).toContain(
      'hệ tọa độ vn2000:105.75 (theo SRS của GeoPackage)',
    )
    const prices = formatSummary({ ...base, kind: 'prices', crs: 'EPSG:4326', crsFrom: 'none', unit: 'dòng' })
    expect(prices[0]).toBe('Đã nhập bộ dữ liệu "x" (prices).')
    expect(prices.join('\n')).not.toMatch(/hệ tọa độ|kinh tuyến/)
    const owners = formatSummary({ ...base, crsFrom: 'option', personalColumns: ['TenChu'] })
    expect(owners[1]).toBe(
      'Đã bỏ cột TenChu (tên, giấy tờ của chủ sử dụng: dữ liệu cá nhân, không lưu, không hiển thị).',
    )
  })

  it('says nothing about rejections when there are none', () => {
    expect(formatRejections([], 'dòng', 0)).toEqual([])
  })
})
