import { describe, expect, it } from 'vitest'
import { isQuotaError } from './quota.ts'

describe('telling a write refused for lack of storage', () => {
  it('recognises the standard error, with its legacy code 22, and Firefox’s older name for it', () => {
    expect(isQuotaError(new DOMException('full', 'QuotaExceededError'))).toBe(true)
    expect(isQuotaError(new DOMException('full', 'NS_ERROR_DOM_QUOTA_REACHED'))).toBe(true)
    expect(new DOMException('full', 'QuotaExceededError').code).toBe(22)
    expect(isQuotaError({ name: 'QuotaExceededError', message: 'full' })).toBe(true)
  })

  it('does not take other failures for a full device', () => {
    expect(isQuotaError(new DOMException('gone', 'NotFoundError'))).toBe(false)
    expect(isQuotaError(new TypeError('Failed to fetch'))).toBe(false)
    expect(isQuotaError(null)).toBe(false)
    expect(isQuotaError('QuotaExceededError')).toBe(false)
  })
})
