import type MapBrowserEvent from 'ol/MapBrowserEvent'
import { mapConfig } from '../config.ts'
import type { MapController } from './map-controller.ts'

/** Runs `fn` at most once per `ms`, always finishing with the latest arguments. */
export function throttle<A extends unknown[]>(
  fn: (...args: A) => void,
  ms: number,
  now: () => number = () => performance.now(),
) {
  let last = -Infinity
  let timer: ReturnType<typeof setTimeout> | undefined
  let pending: A | undefined
  const run = (args: A) => {
    last = now()
    pending = undefined
    fn(...args)
  }
  const throttled = (...args: A) => {
    const wait = last + ms - now()
    if (wait <= 0 && timer === undefined) return run(args)
    pending = args
    timer ??= setTimeout(
      () => {
        timer = undefined
        if (pending) run(pending)
      },
      Math.max(0, wait),
    )
  }
  throttled.cancel = () => {
    clearTimeout(timer)
    timer = undefined
    pending = undefined
  }
  return throttled
}

/**
 * Desktop hover: the parcel under the mouse is outlined, found in the parcels tiles already on screen
 * (no request per move), at most once per hover interval. Does nothing on touch-only devices.
 */
export function attachHover(ctrl: MapController, enabled: () => boolean): () => void {
  if (typeof matchMedia !== 'function' || !matchMedia('(hover: hover) and (pointer: fine)').matches) return () => {}
  const map = ctrl.map
  const viewport = map.getViewport()
  if (!viewport) return () => {}
  const update = throttle((pixel: number[]) => {
    const id = enabled() ? ctrl.parcelIdAt(pixel) : null
    ctrl.setHovered(id)
    viewport.style.cursor = id ? 'pointer' : ''
  }, mapConfig.hoverThrottleMs)
  const onMove = (e: MapBrowserEvent) => {
    if (e.dragging) return
    update(e.pixel)
  }
  const onLeave = () => {
    update.cancel()
    ctrl.setHovered(null)
    viewport.style.cursor = ''
  }
  map.on('pointermove', onMove)
  viewport.addEventListener('mouseleave', onLeave)
  return () => {
    update.cancel()
    map.un('pointermove', onMove)
    viewport.removeEventListener('mouseleave', onLeave)
  }
}
