import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest'
import { createTapDetector, HOLD_VIBRATION_MS } from './tap.ts'

const opts = { holdMs: 600, tolerancePx: 15, doubleTapMs: 250 }
type OnPixel = (pixel: number[]) => void
let onTap: ReturnType<typeof vi.fn<OnPixel>>
let onHold: ReturnType<typeof vi.fn<OnPixel>>
let d: ReturnType<typeof createTapDetector>

beforeEach(() => {
  vi.useFakeTimers()
  onTap = vi.fn<OnPixel>()
  onHold = vi.fn<OnPixel>()
  d = createTapDetector({ onTap, onHold }, opts)
})
afterEach(() => {
  d.dispose()
  vi.useRealTimers()
})

describe('tap, hold and double-tap', () => {
  it('reports a short press as a tap once the double-tap window has passed', () => {
    d.down(1, 100, 100, true)
    d.move(1, 108, 104)
    d.up(1)
    vi.advanceTimersByTime(249)
    expect(onTap).not.toHaveBeenCalled()
    vi.advanceTimersByTime(1)
    expect(onTap).toHaveBeenCalledExactlyOnceWith([100, 100])
  })

  it('treats moving more than 15 px as a pan, not a tap', () => {
    d.down(1, 100, 100, true)
    d.move(1, 112, 112)
    d.up(1)
    vi.advanceTimersByTime(1000)
    expect(onTap).not.toHaveBeenCalled()
    expect(onHold).not.toHaveBeenCalled()
  })

  it('drops a pin after holding still for 600 ms and does not look up on release', () => {
    d.down(1, 50, 60, true)
    vi.advanceTimersByTime(599)
    expect(onHold).not.toHaveBeenCalled()
    vi.advanceTimersByTime(1)
    expect(onHold).toHaveBeenCalledExactlyOnceWith([50, 60])
    d.up(1)
    vi.advanceTimersByTime(1000)
    expect(onTap).not.toHaveBeenCalled()
  })

  it('buzzes once when a hold drops a pin, and not for a tap', () => {
    const vibrate = vi.fn(() => true)
    Object.defineProperty(navigator, 'vibrate', { value: vibrate, configurable: true })
    try {
      d.down(1, 10, 10, true)
      d.up(1)
      vi.advanceTimersByTime(1000)
      expect(vibrate).not.toHaveBeenCalled()
      d.down(1, 50, 60, true)
      vi.advanceTimersByTime(600)
      expect(vibrate).toHaveBeenCalledExactlyOnceWith(HOLD_VIBRATION_MS)
    } finally {
      delete (navigator as { vibrate?: unknown }).vibrate
    }
  })

  it('lets a double-tap zoom without any lookup', () => {
    d.down(1, 100, 100, true)
    d.up(1)
    vi.advanceTimersByTime(120)
    d.down(2, 104, 98, true)
    d.up(2)
    vi.advanceTimersByTime(1000)
    expect(onTap).not.toHaveBeenCalled()
  })

  it('ignores a pinch: a second finger cancels the tap', () => {
    d.down(1, 100, 100, true)
    d.down(2, 200, 200, true)
    d.up(1)
    d.up(2)
    vi.advanceTimersByTime(1000)
    expect(onTap).not.toHaveBeenCalled()
    expect(onHold).not.toHaveBeenCalled()
  })

  it('ignores presses of other mouse buttons', () => {
    d.down(1, 100, 100, false)
    d.up(1)
    vi.advanceTimersByTime(1000)
    expect(onTap).not.toHaveBeenCalled()
  })
})
