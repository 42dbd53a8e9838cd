import { describe, expect, it } from 'vitest'
import { isIosSafari } from './capture.ts'
import { shouldOfferInstall, SNOOZE_DAYS } from './moment.ts'

const base = {
  installed: false,
  canPrompt: true,
  iosSafari: false,
  lookups: 1,
  dismissedAt: null,
  now: 1_000_000_000_000,
}

describe('the moment to offer installing', () => {
  it('offers once the user has had a lookup and the browser can install', () => {
    expect(shouldOfferInstall(base)).toBe(true)
    expect(shouldOfferInstall({ ...base, lookups: 0 })).toBe(false)
  })
  it('never when installed, or when neither the event nor iOS Safari instructions apply', () => {
    expect(shouldOfferInstall({ ...base, installed: true })).toBe(false)
    expect(shouldOfferInstall({ ...base, canPrompt: false })).toBe(false)
    expect(shouldOfferInstall({ ...base, canPrompt: false, iosSafari: true })).toBe(true)
  })
  it('stays away for the snooze after "Để sau", then asks again', () => {
    const day = 86_400_000
    expect(shouldOfferInstall({ ...base, dismissedAt: base.now - day })).toBe(false)
    expect(shouldOfferInstall({ ...base, dismissedAt: base.now - (SNOOZE_DAYS + 1) * day })).toBe(true)
  })
  it('recognises iPhone Safari but not Chrome on iPhone', () => {
    const safari =
      'Mozilla/5.0 (iPhone; CPU iPhone OS 17_0 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/17.0 Mobile/15E148 Safari/604.1'
    expect(isIosSafari(safari, 5)).toBe(true)
    expect(isIosSafari(safari.replace('Version/17.0', 'CriOS/120.0'), 5)).toBe(false)
    expect(isIosSafari('Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 Chrome/120 Safari/537.36', 0)).toBe(false)
  })
})
