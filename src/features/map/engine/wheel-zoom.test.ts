import { afterEach, describe, expect, it, vi } from 'vitest'
import { createWheelAccumulator } from './wheel-zoom.ts'

afterEach(() => vi.useRealTimers())

describe('wheel zoom', () => {
  it('sums wheel events that come within the debounce and zooms once by 60 px per level', () => {
    vi.useFakeTimers()
    const onZoom = vi.fn()
    const acc = createWheelAccumulator({ debounceMs: 40, pxPerZoom: 60, onZoom })
    acc.push(-30, 0, [10, 10])
    vi.advanceTimersByTime(30)
    acc.push(-30, 0, [12, 14])
    vi.advanceTimersByTime(39)
    expect(onZoom).not.toHaveBeenCalled()
    vi.advanceTimersByTime(1)
    expect(onZoom).toHaveBeenCalledExactlyOnceWith(1, [12, 14])
  })

  it('zooms out for a downward wheel and reads line deltas as 40 px each', () => {
    vi.useFakeTimers()
    const onZoom = vi.fn()
    const acc = createWheelAccumulator({ debounceMs: 40, pxPerZoom: 60, onZoom })
    acc.push(3, 1, [0, 0])
    vi.advanceTimersByTime(40)
    expect(onZoom).toHaveBeenCalledWith(-2, [0, 0])
  })

  it('caps one burst at four levels and forgets input it was told to cancel', () => {
    vi.useFakeTimers()
    const onZoom = vi.fn()
    const acc = createWheelAccumulator({ debounceMs: 40, pxPerZoom: 60, onZoom })
    acc.push(-6000, 0, [0, 0])
    vi.advanceTimersByTime(40)
    expect(onZoom).toHaveBeenLastCalledWith(4, [0, 0])
    acc.push(-60, 0, [0, 0])
    acc.cancel()
    vi.advanceTimersByTime(100)
    expect(onZoom).toHaveBeenCalledTimes(1)
  })
})
