import { afterEach, describe, expect, it, vi } from 'vitest'
import { holdWakeLock } from './wake-lock.ts'

afterEach(() => vi.unstubAllGlobals())

describe('keeping the screen on', () => {
  it('asks for a screen wake lock and releases it when told, again after the page was hidden', async () => {
    const sentinels: { released: boolean; release: () => Promise<void> }[] = []
    const request = vi.fn(async (kind: string) => {
      expect(kind).toBe('screen')
      const s = {
        released: false,
        release: async () => {
          s.released = true
        },
      }
      sentinels.push(s)
      return s
    })
    vi.stubGlobal('navigator', { ...navigator, wakeLock: { request } })
    const release = holdWakeLock()
    await vi.waitFor(() => expect(sentinels).toHaveLength(1))
    // The browser drops the lock while the page is hidden; back in view, it is asked for again.
    sentinels[0]!.released = true
    document.dispatchEvent(new Event('visibilitychange'))
    await vi.waitFor(() => expect(sentinels).toHaveLength(2))
    release()
    expect(sentinels[1]!.released).toBe(true)
    document.dispatchEvent(new Event('visibilitychange'))
    await Promise.resolve()
    expect(request).toHaveBeenCalledTimes(2)
  })

  it('does nothing where the browser has no wake lock', () => {
    vi.stubGlobal('navigator', {})
    expect(() => holdWakeLock()()).not.toThrow()
  })
})
