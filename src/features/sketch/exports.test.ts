import { describe, expect, it } from 'vitest'
import { fromVn2000 } from '#core/geo/vn2000.ts'
import { readDxf } from '../../../tests/support/dxf-reader.ts'
import { cornersCsv, crsLabel, fileName, outlineDxf } from './exports.ts'
import { outlineOf, type LngLat } from './geometry.ts'

const M = 105.75
const ring: LngLat[] = (
  [
    [1_194_020, 602_000],
    [1_194_020, 602_012.5],
    [1_194_000, 602_010],
    [1_194_000, 602_000],
  ] as const
).map(([x, y]) => {
  const p = fromVn2000(x, y, M)
  return [p.lng, p.lat]
})
const outline = outlineOf(ring, M)!

describe('corner table as CSV', () => {
  it('has a header naming the meridian, one row per corner with X, Y and the next side, and a BOM', () => {
    const csv = cornersCsv(outline)
    expect(csv.startsWith('\uFEFF')).toBe(true)
    const rows = csv.slice(1).trim().split('\r\n')
    expect(rows[0]).toBe(`Điểm,X (m) ${crsLabel(M)},Y (m) ${crsLabel(M)},Cạnh tới điểm sau (m)`)
    expect(rows.slice(1)).toEqual([
      '1,1194020.000,602000.000,12.50',
      '2,1194020.000,602012.500,20.16',
      '3,1194000.000,602010.000,10.00',
      '4,1194000.000,602000.000,20.00',
    ])
  })
  it('names the meridian in degrees and minutes', () => {
    expect(crsLabel(105.75)).toBe('VN-2000 KTT 105°45′ múi 3°')
    expect(crsLabel(107)).toBe('VN-2000 KTT 107°00′ múi 3°')
  })
})

describe('outline as DXF R12', () => {
  const drawing = readDxf(outlineDxf(outline, 'Thửa 34, tờ 12 — Phường Gia Định'))

  it('reads back as an R12 drawing with its sections and layers', () => {
    expect(drawing.version).toBe('AC1009')
    expect(drawing.sections).toEqual(['HEADER', 'TABLES', 'ENTITIES'])
    expect(drawing.layers).toEqual(expect.arrayContaining(['RANH_THUA', 'DIEM', 'SO_HIEU_DIEM', 'CANH']))
  })

  it('holds one closed polyline through the corners with drawing X = easting and Y = northing', () => {
    expect(drawing.polylines).toHaveLength(1)
    const [pl] = drawing.polylines
    expect(pl!.closed).toBe(true)
    expect(pl!.layer).toBe('RANH_THUA')
    expect(pl!.vertices).toEqual(outline.corners.map((c) => [Number(c.y.toFixed(3)), Number(c.x.toFixed(3))]))
    expect(drawing.points).toHaveLength(4)
  })

  it('labels each corner and side and writes the title without diacritics', () => {
    expect(drawing.texts.filter((t) => t.layer === 'SO_HIEU_DIEM').map((t) => t.value)).toEqual(['1', '2', '3', '4'])
    expect(drawing.texts.filter((t) => t.layer === 'CANH').map((t) => t.value)).toEqual([
      '12.50',
      '20.16',
      '10.00',
      '20.00',
    ])
    const notes = drawing.texts.filter((t) => t.layer === 'GHI_CHU').map((t) => t.value)
    expect(notes[0]).toBe('THUA 34, TO 12 ? PHUONG GIA DINH')
    expect(notes.every((n) => /^[\x20-\x7e]*$/.test(n))).toBe(true)
  })

  it('refuses a file with a missing EOF or an unclosed polyline', () => {
    const text = outlineDxf(outline, 't')
    expect(() => readDxf(text.replace(/  0\r\nEOF\r\n$/, ''))).toThrow(/EOF/)
    expect(() => readDxf(text.replace('  0\r\nSEQEND\r\n  8\r\nRANH_THUA\r\n', ''))).toThrow()
  })
})

describe('export file names', () => {
  it('folds Vietnamese into a plain slug', () => {
    expect(fileName('Sơ đồ tờ 12 thửa 34', 'dxf')).toBe('so-do-to-12-thua-34.dxf')
    expect(fileName('***', 'csv')).toBe('so-do.csv')
  })
})
