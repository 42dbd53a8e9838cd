import type { MapController } from '../engine/map-controller.ts'
import type { LatLngZoom } from '../../../lib/map-url.ts'

/**
 * The boot map: the map index.html starts on /demo before the app runs (boot-map.ts), kept here until
 * the app's map view takes it over. Free of OpenLayers and React, because the app's entry (the map
 * frame, the route) and the boot module both import it: this small module is where they meet.
 */
type BootMap = { ctrl: MapController; view: LatLngZoom | undefined }

let boot: BootMap | null = null
/** The element the map frame shows the boot map in, while there is one. */
let host: HTMLElement | null = null
/** The app's map view opened without the boot map (it came too late): one offered now is not wanted. */
let claimed = false
let dropTimer: ReturnType<typeof setTimeout> | undefined

const sameView = (a: LatLngZoom | undefined, b: LatLngZoom | undefined) =>
  a === b || (a !== undefined && b !== undefined && a.lat === b.lat && a.lng === b.lng && a.zoom === b.zoom)

function drop() {
  boot?.ctrl.destroy()
  boot = null
}

/** Called by the boot module once its map exists. */
export function offerBootMap(map: BootMap): void {
  if (claimed) return map.ctrl.destroy()
  boot = map
  if (host) map.ctrl.setTarget(host)
}

/** Whether a boot map is waiting for the map view (it has read the TileJSONs itself). */
export const hasBootMap = (): boolean => boot !== null

/**
 * Shows the boot map in `element`, the map area of the frame the page draws while the map view's code
 * loads, so the map stays on screen when the app replaces the boot shell. Returns what to do when the
 * frame goes: a map view that takes the map over does so in the same render; if none did, none will
 * (the user went to another page), and the map is destroyed.
 */
export function showBootMap(element: HTMLElement): () => void {
  clearTimeout(dropTimer)
  host = element
  boot?.ctrl.setTarget(element)
  return () => {
    if (host === element) host = null
    dropTimer = setTimeout(drop)
  }
}

/**
 * The boot map for a map view opening at `view` (undefined: fitted to the data), moved into `element`;
 * null when there is none, or when it was started for another view (then it is destroyed). Either way
 * the boot map is spoken for: only the first map view can take it.
 */
export function adoptBootMap(element: HTMLElement, view: LatLngZoom | undefined): MapController | null {
  const b = boot
  boot = null
  claimed = true
  clearTimeout(dropTimer)
  if (!b) return null
  if (!sameView(b.view, view)) {
    b.ctrl.destroy()
    return null
  }
  b.ctrl.setTarget(element)
  return b.ctrl
}
