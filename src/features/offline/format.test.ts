import { describe, expect, it } from 'vitest'
import { formatAge, formatBytes } from './format.ts'

describe('offline sizes and ages', () => {
  it('writes sizes in KB, MB and GB the vi-VN way', () => {
    expect(formatBytes(850 * 1024)).toBe('850 KB')
    expect(formatBytes(12.34 * 1024 ** 2)).toBe('12,3 MB')
    expect(formatBytes(1.25 * 1024 ** 3)).toBe('1,3 GB')
  })

  it('says how long ago in minutes, hours, then days', () => {
    const now = Date.parse('2026-07-20T10:00:00Z')
    expect(formatAge(now - 20_000, now)).toBe('vừa xong')
    expect(formatAge(now - 5 * 60_000, now)).toBe('5 phút trước')
    expect(formatAge(now - 3 * 3600_000, now)).toBe('3 giờ trước')
    expect(formatAge(now - 12 * 86400_000 - 5000, now)).toBe('12 ngày trước')
  })
})
