import { describe, expect, it } from 'vitest'
import { RowError } from './errors.ts'
import { date, number, text } from './values.ts'

describe('number', () => {
  it('reads Vietnamese and English number habits', () => {
    expect(number('12.500.000', 'giá', { integer: true })).toBe(12_500_000)
    expect(number('12,500,000', 'giá', { integer: true })).toBe(12_500_000)
    expect(number('1.234,5', 'dt')).toBe(1234.5)
    expect(number('1,234.5', 'dt')).toBe(1234.5)
    expect(number('52,5', 'dt')).toBe(52.5)
    expect(number('52.5', 'dt')).toBe(52.5)
    expect(number('12.500', 'giá', { integer: true })).toBe(12_500)
    expect(number('687.200', 'giá', { thousands: true })).toBe(687_200)
    expect(number('687.5', 'giá', { thousands: true })).toBe(687.5)
    expect(number('12.500', 'diện tích')).toBe(12.5)
    expect(number(' 7 ', 'x')).toBe(7)
    expect(number(42, 'x')).toBe(42)
  })

  it('treats blank as missing and anything else unreadable as a row error', () => {
    expect(number('', 'x')).toBeNull()
    expect(number(undefined, 'x')).toBeNull()
    expect(() => number('12a', 'số tờ')).toThrow(new RowError('số tờ không phải số: "12a"'))
    expect(() => number('1,2,3', 'x')).toThrow(RowError)
    expect(() => number('1.5', 'số thửa', { integer: true })).toThrow(/số nguyên/)
    expect(() => number('120', 'mật độ', { max: 100 })).toThrow(/lớn hơn 100/)
  })
})

describe('date', () => {
  it('reads ISO and Vietnamese day-first dates', () => {
    expect(date('2024-03-15', 'ngày')).toBe('2024-03-15')
    expect(date('15/03/2024', 'ngày')).toBe('2024-03-15')
    expect(date('5-3-2024', 'ngày')).toBe('2024-03-05')
    expect(date(new Date(Date.UTC(2023, 11, 31)), 'ngày')).toBe('2023-12-31')
    expect(date('', 'ngày')).toBeNull()
  })

  it('rejects dates that do not exist', () => {
    expect(() => date('31/02/2024', 'ngày')).toThrow(/có thật/)
    expect(() => date('03/15/2024', 'ngày')).toThrow(RowError)
    expect(() => date('hôm qua', 'ngày')).toThrow(RowError)
  })
})

describe('text', () => {
  it('trims, composes decomposed Vietnamese and treats blank as missing', () => {
    expect(text('  Nguye\u0302\u0303n Hue\u0302\u0323 ')).toBe('Nguyễn Huệ')
    expect(text('   ')).toBeNull()
    expect(text(null)).toBeNull()
    expect(text(12)).toBe('12')
  })
})
