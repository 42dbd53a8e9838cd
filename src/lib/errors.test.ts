import { describe, expect, it } from 'vitest'
import { errorTexts, maxUsageText, nextVietnamMidnight } from './errors.ts'

describe('error catalogue', () => {
  it('has a Vietnamese text for every failure the app explains itself', () => {
    for (const key of [
      'UNKNOWN',
      'EMPTY',
      'EMPTY_ESTATE',
      'EMPTY_VALUATION',
      'LOCATION_INCORRECT',
      'MAX_USAGE',
      'TOKEN_EXPIRED',
      'REQUIRED_LOGIN',
      'MAX_FILE',
    ] as const) {
      expect(errorTexts[key].length).toBeGreaterThan(5)
    }
  })

  it('reads MAX_FILE exactly as "Tối đa 4 hình ảnh."', () => {
    expect(errorTexts.MAX_FILE).toBe('Tối đa 4 hình ảnh.')
  })

  it('puts the daily reset at the next midnight in Việt Nam time', () => {
    expect(nextVietnamMidnight(new Date('2026-03-10T16:59:59Z')).toISOString()).toBe('2026-03-10T17:00:00.000Z')
    expect(nextVietnamMidnight(new Date('2026-03-10T17:00:00Z')).toISOString()).toBe('2026-03-11T17:00:00.000Z')
  })

  it('writes the MAX_USAGE text with the local reset time', () => {
    expect(maxUsageText(new Date('2026-03-10T17:00:00Z'))).toBe(
      'Bạn đã dùng hết lượt tra cứu hôm nay. Lượt mới có từ 00:00 ngày 11/03/2026.',
    )
  })
})
