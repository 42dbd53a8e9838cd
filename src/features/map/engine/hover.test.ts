import { afterEach, describe, expect, it, vi } from 'vitest'
import { throttle } from './hover.ts'

afterEach(() => vi.useRealTimers())

describe('hover throttle', () => {
  it('runs at once, then at most once per 32 ms with the latest position', () => {
    vi.useFakeTimers()
    const seen: number[] = []
    const t = throttle(
      (x: number) => seen.push(x),
      32,
      () => Date.now(),
    )
    t(1)
    t(2)
    t(3)
    expect(seen).toEqual([1])
    vi.advanceTimersByTime(31)
    expect(seen).toEqual([1])
    vi.advanceTimersByTime(1)
    expect(seen).toEqual([1, 3])
    vi.advanceTimersByTime(100)
    t(4)
    expect(seen).toEqual([1, 3, 4])
  })

  it('drops a pending call when cancelled (the mouse left the map)', () => {
    vi.useFakeTimers()
    const seen: number[] = []
    const t = throttle(
      (x: number) => seen.push(x),
      32,
      () => Date.now(),
    )
    t(1)
    t(2)
    t.cancel()
    vi.advanceTimersByTime(100)
    expect(seen).toEqual([1])
  })
})
