import type OlMap from 'ol/Map'
import type { Pixel } from 'ol/pixel'
import { mapConfig } from '../config.ts'

export type TapHandlers = {
  /** A short press that did not move: look up what is there. */
  onTap(pixel: Pixel): void
  /** A press held still for the hold time: drop a pin, no lookup. */
  onHold(pixel: Pixel): void
}

/** The buzz for a pin dropped by holding, in ms: felt, not startling. */
export const HOLD_VIBRATION_MS = 40

type Options = { holdMs: number; tolerancePx: number; doubleTapMs: number }

/**
 * Tells taps, holds and double-taps apart from pointer events. A tap is reported only once the
 * double-tap window has passed, so a double-tap zooms the map without costing two counted lookups;
 * a second finger or moving beyond the tolerance makes the gesture a pan or pinch, never a tap.
 */
export function createTapDetector(
  handlers: TapHandlers,
  opts: Options = {
    holdMs: mapConfig.tapHoldMs,
    tolerancePx: mapConfig.tapTolerancePx,
    doubleTapMs: mapConfig.doubleTapMs,
  },
) {
  const down = new Set<number>()
  let gesture: { id: number; x: number; y: number; held: boolean } | null = null
  let holdTimer: ReturnType<typeof setTimeout> | undefined
  let pendingTap: { x: number; y: number; timer: ReturnType<typeof setTimeout> } | null = null

  const cancelGesture = () => {
    clearTimeout(holdTimer)
    gesture = null
  }
  const far = (ax: number, ay: number, bx: number, by: number) => Math.hypot(ax - bx, ay - by) > opts.tolerancePx

  return {
    down(id: number, x: number, y: number, primaryButton: boolean) {
      down.add(id)
      if (down.size > 1 || !primaryButton) {
        cancelGesture()
        return
      }
      gesture = { id, x, y, held: false }
      clearTimeout(holdTimer)
      holdTimer = setTimeout(() => {
        if (!gesture) return
        gesture.held = true
        if (pendingTap) {
          clearTimeout(pendingTap.timer)
          pendingTap = null
        }
        // A short buzz says the hold registered (the finger hides the pin as it appears); silent where unsupported.
        if (typeof navigator !== 'undefined' && typeof navigator.vibrate === 'function')
          navigator.vibrate(HOLD_VIBRATION_MS)
        handlers.onHold([gesture.x, gesture.y])
      }, opts.holdMs)
    },
    move(id: number, x: number, y: number) {
      if (gesture && gesture.id === id && far(x, y, gesture.x, gesture.y)) cancelGesture()
    },
    up(id: number) {
      down.delete(id)
      const g = gesture
      if (!g || g.id !== id) return
      cancelGesture()
      if (g.held) return
      if (pendingTap && !far(g.x, g.y, pendingTap.x, pendingTap.y)) {
        // The second tap of a double-tap: the map zooms, nothing is looked up.
        clearTimeout(pendingTap.timer)
        pendingTap = null
        return
      }
      if (pendingTap) clearTimeout(pendingTap.timer)
      const at = { x: g.x, y: g.y }
      pendingTap = {
        ...at,
        timer: setTimeout(() => {
          pendingTap = null
          handlers.onTap([at.x, at.y])
        }, opts.doubleTapMs),
      }
    },
    cancel(id: number) {
      down.delete(id)
      if (gesture?.id === id) cancelGesture()
    },
    dispose() {
      cancelGesture()
      if (pendingTap) clearTimeout(pendingTap.timer)
      pendingTap = null
      down.clear()
    },
  }
}

/** Feeds the map viewport's pointer events to a tap detector; returns the function that detaches it. */
export function attachTaps(map: OlMap, handlers: TapHandlers & { enabled(): boolean }): () => void {
  const el = map.getViewport()
  if (!el) return () => {}
  const detector = createTapDetector(handlers)
  const pixel = (e: PointerEvent) => map.getEventPixel(e)
  const onDown = (e: PointerEvent) => {
    // Presses on the map's own controls (attribution) are not taps on the map.
    if (!handlers.enabled() || (e.target as Element | null)?.closest?.('.ol-overlaycontainer-stopevent')) return
    const [x, y] = pixel(e) as [number, number]
    detector.down(e.pointerId, x, y, e.button === 0)
  }
  const onMove = (e: PointerEvent) => {
    const [x, y] = pixel(e) as [number, number]
    detector.move(e.pointerId, x, y)
  }
  const onUp = (e: PointerEvent) => detector.up(e.pointerId)
  const onCancel = (e: PointerEvent) => detector.cancel(e.pointerId)
  // A long press opens the context menu on phones and a right click does on desktops: both drop a pin.
  const onContext = (e: MouseEvent) => {
    if (!handlers.enabled()) return
    e.preventDefault()
    handlers.onHold(map.getEventPixel(e))
  }
  el.addEventListener('pointerdown', onDown)
  el.addEventListener('pointermove', onMove)
  el.addEventListener('pointerup', onUp)
  el.addEventListener('pointercancel', onCancel)
  el.addEventListener('contextmenu', onContext)
  return () => {
    detector.dispose()
    el.removeEventListener('pointerdown', onDown)
    el.removeEventListener('pointermove', onMove)
    el.removeEventListener('pointerup', onUp)
    el.removeEventListener('pointercancel', onCancel)
    el.removeEventListener('contextmenu', onContext)
  }
}
