import Interaction from 'ol/interaction/Interaction'
import type OlMap from 'ol/Map'
import type MapBrowserEvent from 'ol/MapBrowserEvent'
import type { Pixel } from 'ol/pixel'
import { mapConfig, prefersReducedMotion } from '../config.ts'

// Browsers report wheel deltas in lines or pages on some devices; these turn them into pixels.
const LINE_PX = 40
const PAGE_PX = 300
/** One burst of wheel input never zooms more than this many levels. */
const MAX_LEVELS = 4

/**
 * Sums wheel movement until it pauses for `debounceMs`, then zooms by total / pxPerZoom levels at the
 * last pointer position: a flick of the wheel becomes one smooth zoom, not a stutter of small ones.
 */
export function createWheelAccumulator(opts: {
  debounceMs: number
  pxPerZoom: number
  onZoom: (levels: number, anchor: Pixel) => void
}): {
  push(deltaY: number, deltaMode: number, anchor: Pixel): void
  cancel(): void
} {
  let total = 0
  let anchor: Pixel = [0, 0]
  let timer: ReturnType<typeof setTimeout> | undefined
  const flush = () => {
    timer = undefined
    const levels = Math.max(-MAX_LEVELS, Math.min(MAX_LEVELS, -total / opts.pxPerZoom))
    total = 0
    if (levels !== 0) opts.onZoom(levels, anchor)
  }
  return {
    push(deltaY, deltaMode, at) {
      total += deltaY * (deltaMode === 1 ? LINE_PX : deltaMode === 2 ? PAGE_PX : 1)
      anchor = at
      clearTimeout(timer)
      timer = setTimeout(flush, opts.debounceMs)
    },
    cancel() {
      clearTimeout(timer)
      timer = undefined
      total = 0
    },
  }
}

/** Mouse-wheel zoom with the configured debounce and pixels per level (OpenLayers' own has fixed ones). */
export function wheelZoomInteraction(map: () => OlMap | null): Interaction {
  const acc = createWheelAccumulator({
    debounceMs: mapConfig.wheelDebounceMs,
    pxPerZoom: mapConfig.wheelPxPerZoom,
    onZoom(levels, anchor) {
      const m = map()
      const view = m?.getView()
      const zoom = view?.getZoom()
      if (!m || !view || zoom === undefined) return
      if (view.getAnimating()) view.cancelAnimations()
      const target = Math.max(view.getMinZoom(), Math.min(view.getMaxZoom(), zoom + levels))
      view.animate({
        zoom: target,
        anchor: m.getCoordinateFromPixel(anchor),
        duration: prefersReducedMotion() ? 0 : 180,
      })
    },
  })
  return new Interaction({
    handleEvent(e: MapBrowserEvent) {
      if (e.type !== 'wheel') return true
      const wheel = e.originalEvent as WheelEvent
      wheel.preventDefault()
      acc.push(wheel.deltaY, wheel.deltaMode, e.pixel)
      return false
    },
  })
}
