import type OlMap from 'ol/Map'
import type View from 'ol/View'
import { isEmpty, type Extent } from 'ol/extent'
import type { Geometry } from 'ol/geom'
import { fromLonLat, toLonLat } from 'ol/proj'
import { mapConfig } from '../config.ts'
import type { LatLngZoom, Point as LatLng } from '../../../lib/map-url.ts'

/** Room the floating controls take at each edge, in px: search box, toolbar, chips (coordinates, legend, scale). */
export const CHROME = { top: 72, right: 64, bottom: 110, left: 16 } as const

/**
 * Where the map looks and how it moves there: animated unless the user prefers reduced motion, and
 * any running animation cancelled first so moves never queue up.
 */
export function createCamera(map: () => OlMap | null, view: View, start: LatLngZoom, reduced: boolean) {
  const animateOr = (opts: { center?: number[]; zoom?: number }) => {
    if (view.getAnimating()) view.cancelAnimations()
    if (reduced) {
      if (opts.center) view.setCenter(opts.center)
      if (opts.zoom !== undefined) view.setZoom(opts.zoom)
    } else view.animate({ ...opts, duration: mapConfig.flyDurationMs })
  }
  return {
    current(): LatLngZoom {
      const [lng, lat] = toLonLat(view.getCenter() ?? fromLonLat([start.lng, start.lat])) as [number, number]
      return { lat, lng, zoom: view.getZoom() ?? start.zoom }
    },
    flyTo(p: LatLng, zoom?: number) {
      animateOr({ center: fromLonLat([p.lng, p.lat]), ...(zoom !== undefined ? { zoom } : {}) })
    },
    zoomBy(delta: number) {
      const z = view.getZoom() ?? start.zoom
      animateOr({ zoom: Math.max(view.getMinZoom(), Math.min(view.getMaxZoom(), z + delta)) })
    },
    fitExtent(extent: Extent, opts: { padding: number[]; maxZoom: number; animate: boolean }) {
      view.fit(extent, {
        padding: opts.padding,
        maxZoom: opts.maxZoom,
        ...(opts.animate ? { duration: reduced ? 0 : mapConfig.flyDurationMs } : {}),
      })
    },
    /**
     * Fits the looked-up parcel into the part of the map nothing covers: below the search box, left of
     * the toolbar (and the desktop's side panel), above the phone's sheet and the chips over it. Never
     * zooms in past where the user is.
     */
    fitInside(g: Geometry, cover: { bottom: number; right: number }) {
      const m = map()
      const size = m?.getSize()
      if (!m || !size) return
      const extent = g.getExtent()
      if (isEmpty(extent)) return
      const padding = [CHROME.top, cover.right + CHROME.right, cover.bottom + CHROME.bottom, CHROME.left]
      // A phone held in landscape has little height left: then the parcel gets what remains.
      if (padding[0]! + padding[2]! > size[1]! - 40) padding[2] = Math.max(0, size[1]! - 40 - padding[0]!)
      if (view.getAnimating()) view.cancelAnimations()
      view.fit(extent, {
        padding,
        maxZoom: view.getZoom() ?? mapConfig.focusZoom,
        duration: reduced ? 0 : mapConfig.flyDurationMs,
      })
    },
    /**
     * Pans just enough that the point stays clear of what covers the map's edges (the phone's sheet at
     * the bottom with the chips above it, the desktop's side panel on the right).
     */
    keepVisible(p: LatLng, cover: { bottom: number; right: number }) {
      const m = map()
      if (!m) return
      const size = m.getSize()
      const px = m.getPixelFromCoordinate(fromLonLat([p.lng, p.lat]))
      if (!size || !px) return
      const [w, h] = size as [number, number]
      const [x, y] = px as [number, number]
      const bottomLimit = h - cover.bottom - (cover.bottom > 0 ? 110 : 0)
      const rightLimit = w - cover.right - 48
      const dy = y > bottomLimit ? y - Math.max(80, (h - cover.bottom) / 2) : 0
      const dx = x > rightLimit ? x - (w - cover.right) / 2 : 0
      if (dx === 0 && dy === 0) return
      animateOr({ center: m.getCoordinateFromPixel([w / 2 + dx, h / 2 + dy]) })
    },
  }
}
