import { describe, expect, it } from 'vitest'
import { formatVietnamTime, nextVietnamMidnight, toVietnamIso, vietnamDay } from './vietnam-time.ts'

describe('Việt Nam local time', () => {
  it('puts 16:59 UTC on the same local day and 17:00 UTC on the next', () => {
    expect(vietnamDay(new Date('2030-05-10T16:59:59.999Z'))).toBe('2030-05-10')
    expect(vietnamDay(new Date('2030-05-10T17:00:00.000Z'))).toBe('2030-05-11')
  })

  it('finds the next local midnight, also from exactly midnight', () => {
    expect(nextVietnamMidnight(new Date('2030-05-10T16:59:59Z')).toISOString()).toBe('2030-05-10T17:00:00.000Z')
    expect(nextVietnamMidnight(new Date('2030-05-10T17:00:00Z')).toISOString()).toBe('2030-05-11T17:00:00.000Z')
    expect(nextVietnamMidnight(new Date('2030-12-31T20:00:00Z')).toISOString()).toBe('2031-01-01T17:00:00.000Z')
  })

  it('writes ISO 8601 with the +07:00 offset for the same instant', () => {
    const at = new Date('2030-05-10T17:00:00Z')
    expect(toVietnamIso(at)).toBe('2030-05-11T00:00:00.000+07:00')
    expect(Date.parse(toVietnamIso(at))).toBe(at.getTime())
    expect(formatVietnamTime(at)).toBe('00:00 ngày 11/05/2030')
  })
})
