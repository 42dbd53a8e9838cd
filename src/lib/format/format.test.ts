import { describe, expect, it } from 'vitest'
import fc from 'fast-check'
import {
  formatArea,
  formatDate,
  formatDistance,
  formatMeters,
  formatMoneyShort,
  formatNumber,
  formatPercent,
  formatVnd,
  formatVndPerM2,
  parseLocaleNumber,
} from './format.ts'

describe('money and area formatting (vi-VN)', () => {
  it('groups thousands with dots and writes đ/m² after a price per square metre', () => {
    expect(formatVndPerM2(12_500_000)).toBe('12.500.000 đ/m²')
    expect(formatVnd(58_066_000)).toBe('58.066.000 đ')
    expect(formatVndPerM2(115_324_000.4)).toBe('115.324.000 đ/m²')
  })

  it('writes areas with a decimal comma and at most one decimal', () => {
    expect(formatArea(1234.5)).toBe('1.234,5 m²')
    expect(formatArea(69.74)).toBe('69,7 m²')
    expect(formatArea(80)).toBe('80 m²')
  })

  it('says billions as tỷ with up to two decimals', () => {
    expect(formatMoneyShort(12_500_000_000)).toBe('12,5 tỷ')
    expect(formatMoneyShort(8_038_000_000)).toBe('8,04 tỷ')
    expect(formatMoneyShort(1_000_000_000)).toBe('1 tỷ')
    expect(formatMoneyShort(125_000_000_000)).toBe('125 tỷ')
    expect(formatMoneyShort(1_234_000_000_000)).toBe('1.234 tỷ')
  })

  it('says millions as triệu, without decimals from a hundred million', () => {
    expect(formatMoneyShort(350_000_000)).toBe('350 triệu')
    expect(formatMoneyShort(350_400_000)).toBe('350 triệu')
    expect(formatMoneyShort(1_500_000)).toBe('1,5 triệu')
    expect(formatMoneyShort(45_000_000)).toBe('45 triệu')
  })

  it('moves to the next unit when rounding reaches it', () => {
    expect(formatMoneyShort(999_960_000)).toBe('1 tỷ')
    expect(formatMoneyShort(999_999_999)).toBe('1 tỷ')
    expect(formatMoneyShort(999_960)).toBe('1 triệu')
  })

  it('writes sums under a million exactly in đồng', () => {
    expect(formatMoneyShort(850_000)).toBe('850.000 đ')
    expect(formatMoneyShort(0)).toBe('0 đ')
  })

  it('never shows a unit with a number of 1,000 or more below tỷ', () => {
    fc.assert(
      fc.property(fc.integer({ min: 0, max: 10 ** 13 }), (v) => {
        const text = formatMoneyShort(v)
        expect(text).toMatch(/^(\d{1,3}(\.\d{3})*(,\d{1,2})? tỷ|\d{1,3}(,\d)? triệu|\d{1,3}(\.\d{3})? đ)$/)
      }),
    )
  })

  it('writes lengths, distances, shares and dates the Vietnamese way', () => {
    expect(formatMeters(4.5)).toBe('4,5 m')
    expect(formatDistance(46.4)).toBe('46 m')
    expect(formatDistance(1250)).toBe('1,3 km')
    expect(formatPercent(0.72)).toBe('72%')
    expect(formatDate('2026-06-30')).toBe('30/06/2026')
    expect(formatDate('2026-06-30T23:30:00Z')).toBe('30/06/2026')
    expect(formatNumber(1234567)).toBe('1.234.567')
  })
})

describe('reading typed numbers', () => {
  it('reads a decimal comma or a decimal point', () => {
    expect(parseLocaleNumber('4,5')).toBe(4.5)
    expect(parseLocaleNumber('4.5')).toBe(4.5)
    expect(parseLocaleNumber(' 69,7 ')).toBe(69.7)
  })

  it('reads grouped thousands in either style', () => {
    expect(parseLocaleNumber('1.234,5')).toBe(1234.5)
    expect(parseLocaleNumber('1,234.5')).toBe(1234.5)
    expect(parseLocaleNumber('1.000.000')).toBe(1_000_000)
    expect(parseLocaleNumber('1 234')).toBe(1234)
  })

  it('returns null for empty input and NaN for words', () => {
    expect(parseLocaleNumber('')).toBeNull()
    expect(parseLocaleNumber('   ')).toBeNull()
    expect(parseLocaleNumber('năm')).toBeNaN()
    expect(parseLocaleNumber('4,5,6')).toBeNaN()
  })
})
