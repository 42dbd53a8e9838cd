import type OlMap from 'ol/Map'
import { fromLonLat, toLonLat, transformExtent } from 'ol/proj'
import { mapConfig, prefersReducedMotion } from '../config.ts'
import type { LatLngZoom, Point as LatLng } from '../../../lib/map-url.ts'
import { createBaseMap, createNationalLayer } from './base-map.ts'
import { importedBounds, type Bounds } from '../server-data.ts'
import { CHROME, createCamera } from './camera.ts'
import { createLegendWatch, type LegendCodes } from './legend-watch.ts'
import { createMarks, readGeometry, type ApiGeometry } from './marks.ts'
import { drawForPrint } from './print-map.ts'
import { createTileLayers, type LayerSettings, type TileSets } from './tile-layers.ts'

export { initialLayerSettings, type BasemapKind, type LayerSettings, type TileSets } from './tile-layers.ts'

/**
 * The OpenLayers map and everything drawn on it, without React: layers from the server's tiles, the
 * national outline, hover and selection highlights and pins. The screen's components drive it through
 * these methods and hear about view changes through `onView`. Each concern lives in its own module
 * (base-map, tile-layers, legend-watch, camera, marks); this puts them together.
 *
 * The tile layers are added once `tileSets` (the server's TileJSONs, read by whoever starts the map)
 * are known; then, when no view was given, the view fits the data.
 */
export function createMapController(
  target: HTMLElement,
  init: { view?: LatLngZoom; settings: LayerSettings; tileSets: Promise<TileSets> },
) {
  const reduced = prefersReducedMotion()
  const start = init.view ?? mapConfig.fallbackCenter
  let map: OlMap | null = null
  const current = () => map
  const national = createNationalLayer()
  const marks = createMarks()
  const base = createBaseMap(target, start, reduced, [national, ...marks.layers], current)
  map = base.map
  const tiles = createTileLayers(base.map, national, init.settings)
  const legend = createLegendWatch(current, tiles.planning)
  const camera = createCamera(current, base.view, start, reduced)
  const viewListeners = new Set<(v: LatLngZoom) => void>()
  /** From "In phiếu" until the print dialog closes (drawForPrint). */
  let printing = false

  const updateNational = () => {
    const size = base.map.getSize()
    if (size) tiles.updateNational(base.view.calculateExtent(size), base.view.getZoom() ?? 0)
  }
  // Whether the view is moving, and where it came to rest, on the map's element: a script driving the
  // page (the end-to-end tests) taps a place where it stands now, not where an animation will leave it.
  // The element asked each time: the boot map is handed over to the map screen's own element.
  const mark = (moving: boolean, view?: LatLngZoom) => {
    const el = base.map.getTargetElement()
    if (!el) return
    el.dataset.moving = String(moving)
    if (view) el.dataset.view = `${view.lat}/${view.lng}/${view.zoom}`
  }
  base.map.on('movestart', () => mark(true))
  base.map.on('moveend', () => {
    updateNational()
    const v = camera.current()
    mark(false, v)
    for (const l of viewListeners) l(v)
    legend.schedule()
  })

  /**
   * Fits the view to the imported data (when the address did not say where to open, or on request), or
   * to the basemap's bounds (the country) when the server has none.
   */
  const fitData = (animate: boolean) => {
    const sets = tiles.tileSets()
    const bounds = importedBounds(sets) ?? sets.basemap?.bounds
    if (!bounds || !map) return
    // The whole area at a zoom where planning zones read as blocks; parcels appear as the user zooms in.
    camera.fitExtent(transformExtent(bounds, 'EPSG:4326', 'EPSG:3857'), {
      padding: [CHROME.top, CHROME.right, CHROME.bottom, CHROME.left],
      maxZoom: 15.5,
      animate,
    })
  }
  // The TileJSONs never fail as a whole: a set that could not be read is missing and its layer uses defaults.
  const layersAdded = init.tileSets.then((sets) => {
    if (!map) return
    const planning = tiles.add(sets)
    updateNational()
    planning.getSource()?.on('tileloadend', () => legend.schedule())
    legend.schedule()
    if (!init.view) fitData(false)
    tiles.preloadFirstTiles()
  })

  return {
    get map() {
      return map!
    },
    /** Settles once the tile layers are on the map (or the map was destroyed first). */
    layersAdded,
    tileSets: tiles.tileSets,
    /** The map element OpenLayers draws into (also the keyboard target). */
    get target() {
      return map?.getTargetElement() ?? target
    },
    /** Moves the map, drawn as it is, into another element (the app's map view taking over the boot map). */
    setTarget(element: HTMLElement) {
      map?.setTarget(element)
      mark(base.view.getAnimating() || base.view.getInteracting(), camera.current())
    },
    view: camera.current,
    onView(listener: (v: LatLngZoom) => void) {
      viewListeners.add(listener)
      return () => viewListeners.delete(listener)
    },
    onLegend: (listener: (codes: LegendCodes) => void) => legend.on(listener),
    setSettings(next: LayerSettings) {
      tiles.setSettings(next)
      legend.schedule()
    },
    hasRaster: tiles.hasRaster,
    /** Moves the view to where the server has parcels and plans. */
    showData: () => fitData(true),
    /** The box the view shows, west, south, east, north in degrees; null before the map has a size. */
    viewBounds(): Bounds | null {
      const size = map?.getSize()
      if (!map || !size) return null
      return transformExtent(base.view.calculateExtent(size), 'EPSG:3857', 'EPSG:4326') as Bounds
    },
    flyTo: camera.flyTo,
    zoomBy: camera.zoomBy,
    setSelectedGeometry: marks.setSelectedGeometry,
    /** Draws the map for the printed card (print-map.ts); resolves with the function that restores it. */
    async drawForPrint(focus: { geometry: ApiGeometry | null; point: LatLng }): Promise<() => void> {
      if (!map) return () => {}
      printing = true
      const g = focus.geometry && readGeometry(focus.geometry)
      const restore = await drawForPrint(map, {
        extent: g ? g.getExtent() : null,
        centre: fromLonLat([focus.point.lng, focus.point.lat]),
      })
      return () => {
        printing = false
        restore()
      }
    },
    setPoints: marks.setPoints,
    parcelIdAt: (pixel: number[]) => (map ? tiles.parcelIdAt(pixel) : null),
    setHovered: tiles.setHovered,
    lngLatAt(pixel: number[]): LatLng {
      const [lng, lat] = toLonLat(map!.getCoordinateFromPixel(pixel)) as [number, number]
      return { lat, lng }
    },
    pixelOf(p: LatLng): number[] | null {
      return map?.getPixelFromCoordinate(fromLonLat([p.lng, p.lat])) ?? null
    },
    keepVisible: camera.keepVisible,
    /** Fits a parcel from the API into the map's uncovered part (see camera.fitInside). */
    fitSelection(geometry: ApiGeometry, cover: { bottom: number; right: number }) {
      // Laid out for print, the card no longer covers the map: the extract stays framed for the page.
      if (printing) return
      const g = readGeometry(geometry)
      if (g) camera.fitInside(g, cover)
    },
    resize() {
      map?.updateSize()
    },
    destroy() {
      legend.dispose()
      viewListeners.clear()
      map?.setTarget(undefined)
      map?.dispose()
      map = null
    },
  }
}
export type MapController = ReturnType<typeof createMapController>
