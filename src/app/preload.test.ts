import { describe, expect, it } from 'vitest'
import { limitPreloads, preloadAllowed } from './preload.ts'

describe('route preloading', () => {
  it('is skipped when the browser asks to save data or the connection is slow-2g or 2g', () => {
    expect(preloadAllowed(undefined)).toBe(true)
    expect(preloadAllowed({ effectiveType: '4g' })).toBe(true)
    expect(preloadAllowed({ effectiveType: '3g' })).toBe(true)
    expect(preloadAllowed({ saveData: true, effectiveType: '4g' })).toBe(false)
    expect(preloadAllowed({ effectiveType: '2g' })).toBe(false)
    expect(preloadAllowed({ effectiveType: 'slow-2g' })).toBe(false)
  })

  it('runs at most 4 preloads at once and accepts more once one finishes', async () => {
    const finishers: (() => void)[] = []
    let started = 0
    const preload = limitPreloads(
      (name: string) =>
        new Promise<string>((resolve) => {
          started += 1
          finishers.push(() => resolve(name))
        }),
      { allowed: () => true },
    )
    const results = ['a', 'b', 'c', 'd', 'e'].map((n) => preload(n))
    expect(started).toBe(4)
    expect(await results[4]).toBeUndefined()
    finishers[0]!()
    expect(await results[0]).toBe('a')
    void preload('f')
    expect(started).toBe(5)
  })

  it('does not preload at all when preloading is not allowed', async () => {
    let started = 0
    const preload = limitPreloads(async () => (started += 1), { allowed: () => false })
    await preload()
    expect(started).toBe(0)
  })
})
