import { describe, expect, it } from 'vitest'
import { formatAccuracy, gpsErrorMessage } from './gps.ts'

describe('GPS texts', () => {
  it('shows the accuracy as "± N m", in km when the fix is coarse', () => {
    expect(formatAccuracy(8.4)).toBe('± 8 m')
    expect(formatAccuracy(0.3)).toBe('± 1 m')
    expect(formatAccuracy(1500)).toBe('± 1,5 km')
  })

  it('explains a refused permission in Vietnamese with where to allow it, and the https rule on plain http', () => {
    expect(gpsErrorMessage('denied', true)).toMatch(/chặn quyền truy cập vị trí.*cho phép "Vị trí"/)
    expect(gpsErrorMessage('denied', false)).toMatch(/https/)
  })
})
