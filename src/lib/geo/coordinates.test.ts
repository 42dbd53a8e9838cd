import { describe, expect, it } from 'vitest'
import fc from 'fast-check'
import { formatDecimal, formatDms, formatMeridian, formatVn2000, parseCoordinate, parseNumber } from './coordinates.ts'
import { formatMeasureArea, formatMeasureLength } from './measure-format.ts'
import { autoMeridian, provinceAt } from '#core/geo/provinces.ts'
import { fromVn2000, toVn2000 } from '#core/geo/vn2000.ts'

const HCM = 105.75
const okOf = (input: string, meridian = HCM) => {
  const r = parseCoordinate(input, meridian)
  if (!r.ok) throw new Error(`${input}: ${r.error}`)
  return r
}
const near = (a: number, b: number, tol: number) => expect(Math.abs(a - b)).toBeLessThan(tol)

describe('parseNumber', () => {
  it.each([
    ['10.5', 10.5],
    ['-10,5', -10.5],
    ['1.194.784,86', 1194784.86],
    ['1 194 784,86', 1194784.86],
    ['602695.557', 602695.557],
    ['106', 106],
    ['111.975', 111.975],
    ['602.695,5', 602695.5],
  ])('reads %s as %d', (text, value) => {
    expect(parseNumber(text)).toBe(value)
  })

  it.each(['', 'abc', '1.2.3', '10,5,6'])('refuses %j', (text) => {
    expect(parseNumber(text)).toBeUndefined()
  })
})

describe('parseCoordinate', () => {
  it('reads decimal degrees with a comma, a semicolon or a space between them', () => {
    for (const text of ['10.802628, 106.690907', '10.802628;106.690907', '10.802628 106.690907']) {
      expect(okOf(text)).toMatchObject({ kind: 'decimal', lat: 10.802628, lng: 106.690907 })
    }
  })

  it('reads Vietnamese decimal commas when the two values are separated by a space', () => {
    expect(okOf('10,802628 106,690907')).toMatchObject({ kind: 'decimal', lat: 10.802628, lng: 106.690907 })
  })

  it('takes longitude-first input when the first value cannot be a latitude', () => {
    expect(okOf('106.690907, 10.802628')).toMatchObject({ lat: 10.802628, lng: 106.690907 })
  })

  it('reads degrees, minutes and seconds with English or Vietnamese hemisphere letters', () => {
    const expected = { lat: 10 + 48 / 60 + 9.46 / 3600, lng: 106 + 41 / 60 + 27.27 / 3600 }
    for (const text of [
      `10°48'09.46"N 106°41'27.27"E`,
      '10°48′09,46″B, 106°41′27,27″Đ',
      'N10°48′9.46″ E106°41′27.27″',
      '10 48 09.46 N 106 41 27.27 E',
    ]) {
      const r = okOf(text)
      expect(r.kind).toBe('dms')
      near(r.lat, expected.lat, 1e-9)
      near(r.lng, expected.lng, 1e-9)
    }
  })

  it('reads degrees with decimal minutes and puts a value marked E second even when typed first', () => {
    const r = okOf(`106°41.4545'E 10°48.1577'N`)
    near(r.lat, 10 + 48.1577 / 60, 1e-9)
    near(r.lng, 106 + 41.4545 / 60, 1e-9)
  })

  it('makes south and west negative', () => {
    const r = okOf(`33°52'S 151°12'W`)
    near(r.lat, -(33 + 52 / 60), 1e-9)
    near(r.lng, -(151 + 12 / 60), 1e-9)
  })

  it('reads labelled VN-2000 X (northing) and Y (easting) in either order', () => {
    const grid = toVn2000(10.802628, 106.690907, HCM)
    for (const text of [
      `X ${grid.x.toFixed(3)} Y ${grid.y.toFixed(3)}`,
      `Y=${grid.y.toFixed(3)}; X=${grid.x.toFixed(3)}`,
      `x: ${grid.x.toFixed(3)}, y: ${grid.y.toFixed(3)}`,
    ]) {
      const r = okOf(text)
      expect(r.kind).toBe('vn2000')
      near(r.lat, 10.802628, 1e-8)
      near(r.lng, 106.690907, 1e-8)
    }
  })

  it('reads unlabelled VN-2000 values as X then Y, and takes the larger one as X whatever the order', () => {
    for (const text of ['1194784.858 602695.557', '602695.557, 1194784.858', '1.194.784,858  602.695,557']) {
      const r = okOf(text)
      expect(r).toMatchObject({ kind: 'vn2000', x: 1194784.858, y: 602695.557, meridian: HCM })
      near(r.lat, 10.802628, 1e-6)
    }
  })

  it('uses the chosen meridian for VN-2000 input', () => {
    const at105 = okOf('X 2326345.312 Y 588591.944', 105)
    near(at105.lat, 21.0285, 1e-7)
    near(at105.lng, 105.8542, 1e-7)
    const at10575 = okOf('X 2326345.312 Y 588591.944', 105.75)
    expect(Math.abs(at10575.lng - 105.8542)).toBeGreaterThan(0.5)
  })

  it.each([
    ['', 'Vui lòng nhập toạ độ.'],
    ['95, 106', 'Vĩ độ phải từ -90 đến 90.'],
    ['10°75′N 106°E', 'Phút và giây phải nhỏ hơn 60.'],
    ['X 12 Y 34', 'Toạ độ VN-2000 không hợp lệ'],
    ['10°48′N', 'Cần đúng hai giá trị'],
    ['hello', 'Không đọc được toạ độ'],
    ['1 2 3', 'Không đọc được toạ độ'],
  ])('explains in Vietnamese why %j is not a coordinate', (text, message) => {
    const r = parseCoordinate(text, HCM)
    expect(r.ok).toBe(false)
    expect(r.ok ? '' : r.error).toContain(message)
  })
})

describe('formatting', () => {
  it('formats decimal degrees to six places without trailing zeros', () => {
    expect(formatDecimal({ lat: 10.8026281, lng: 106.69 })).toBe('10.802628, 106.69')
  })

  it('formats degrees, minutes and seconds with carried rounding', () => {
    expect(formatDms({ lat: 10.802628, lng: 106.690907 })).toBe('10°48′09.46″N 106°41′27.27″E')
    expect(formatDms({ lat: 10.9999999, lng: -0.5 })).toBe('11°00′00.00″N 0°30′00.00″W')
  })

  it('formats VN-2000 metres in vi-VN digits and the meridian in degrees and minutes', () => {
    expect(formatVn2000({ x: 1194784.858, y: 602695.5 })).toEqual({ x: '1.194.784,86', y: '602.695,50' })
    expect(formatMeridian(105.75)).toBe('105°45′')
    expect(formatMeridian(105)).toBe('105°00′')
    expect(formatMeridian(108.25)).toBe('108°15′')
  })

  it('reads back what it formats in decimal, DMS and VN-2000 anywhere in Việt Nam', () => {
    fc.assert(
      fc.property(
        fc.double({ min: 8.3, max: 23.4, noNaN: true }),
        fc.double({ min: 102.1, max: 117.9, noNaN: true }),
        (lat, lng) => {
          const dec = okOf(formatDecimal({ lat, lng }))
          near(dec.lat, lat, 1e-6)
          near(dec.lng, lng, 1e-6)
          const dms = okOf(formatDms({ lat, lng }))
          near(dms.lat, lat, 0.01 / 3600)
          near(dms.lng, lng, 0.01 / 3600)
        },
      ),
      { numRuns: 200 },
    )
    // VN-2000 zones cover the mainland; the open sea east of 109.5° lies outside every provincial zone.
    fc.assert(
      fc.property(
        fc.double({ min: 8.3, max: 23.4, noNaN: true }),
        fc.double({ min: 102.1, max: 109.5, noNaN: true }),
        (lat, lng) => {
          const meridian = autoMeridian(lat, lng).meridian
          const grid = formatVn2000(toVn2000(lat, lng, meridian))
          const back = okOf(`X ${grid.x} Y ${grid.y}`, meridian)
          near(back.lat, lat, 1e-6)
          near(back.lng, lng, 1e-6)
        },
      ),
      { numRuns: 200 },
    )
  })

  it('formats lengths in m or km and areas in m² with hectares from 1.000 m²', () => {
    expect(formatMeasureLength(12.34)).toBe('12,3 m')
    expect(formatMeasureLength(456.74)).toBe('456,7 m')
    expect(formatMeasureLength(1250)).toBe('1,25 km')
    expect(formatMeasureArea(69.74)).toBe('69,7 m²')
    expect(formatMeasureArea(12345)).toBe('12.345 m² (1,2345 ha)')
  })
})

describe('VN-2000 round trips', () => {
  // proj4 undoes the datum shift by applying the negated Helmert parameters, which leaves about a
  // millimetre 200 km off the meridian; that is far below what a survey reads.
  it('returns to the same grid point through WGS84 within 2 mm at every meridian in use', () => {
    fc.assert(
      fc.property(
        fc.constantFrom(105, 105.75, 106.25, 107.75, 108.25, 108.5),
        fc.double({ min: 950_000, max: 2_550_000, noNaN: true }),
        fc.double({ min: 300_000, max: 700_000, noNaN: true }),
        (meridian, x, y) => {
          const { lat, lng } = fromVn2000(x, y, meridian)
          const back = toVn2000(lat, lng, meridian)
          near(back.x, x, 0.002)
          near(back.y, y, 0.002)
        },
      ),
      { numRuns: 100 },
    )
  })
})

describe('meridian per province', () => {
  it('picks the province meridian from the position, smallest province box first', () => {
    expect(autoMeridian(10.7769, 106.7009)).toEqual({ meridian: 105.75, province: 'Thành phố Hồ Chí Minh' })
    expect(autoMeridian(21.0285, 105.8542)).toEqual({ meridian: 105, province: 'Thành phố Hà Nội' })
    expect(autoMeridian(16.0544, 108.2022)).toEqual({ meridian: 107.75, province: 'Thành phố Đà Nẵng' })
    expect(provinceAt(12.2388, 109.1967)).toBe('Khánh Hòa')
  })

  it('falls back to the nearest meridian in use outside the listed provinces', () => {
    expect(autoMeridian(18.68, 105.68)).toEqual({ meridian: 105.75, province: undefined })
    expect(autoMeridian(13.77, 109.22)).toEqual({ meridian: 108.5, province: undefined })
  })
})
