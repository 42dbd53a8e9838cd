import Feature, { type FeatureLike } from 'ol/Feature'
import OlMap from 'ol/Map'
import View from 'ol/View'
import Attribution from 'ol/control/Attribution'
import ScaleLine from 'ol/control/ScaleLine'
import { createEmpty, extend as extendExtent, isEmpty, type Extent } from 'ol/extent'
import GeoJSON from 'ol/format/GeoJSON'
import MVT from 'ol/format/MVT'
import MultiPolygon from 'ol/geom/MultiPolygon'
import Point from 'ol/geom/Point'
import Polygon, { fromExtent } from 'ol/geom/Polygon'
import { defaults as defaultInteractions } from 'ol/interaction/defaults'
import KeyboardPan from 'ol/interaction/KeyboardPan'
import KeyboardZoom from 'ol/interaction/KeyboardZoom'
import TileLayer from 'ol/layer/Tile'
import VectorLayer from 'ol/layer/Vector'
import VectorTileLayer from 'ol/layer/VectorTile'
import { fromLonLat, toLonLat, transformExtent } from 'ol/proj'
import VectorSource from 'ol/source/Vector'
import VectorTileSource from 'ol/source/VectorTile'
import XYZ from 'ol/source/XYZ'
import type { Geometry as GeoJsonGeometry } from 'geojson'
import type { Parcel } from '#core/contract/lookups.ts'
import { env } from '../../../lib/env.ts'
import type { TileJson, TileLayerId } from '#core/contract/tiles.ts'
import { mapConfig, prefersReducedMotion } from '../config.ts'
import { vietnamOutline } from '../national-outline.ts'
import {
  createBasemapStyle,
  createHatchPattern,
  createNationalStyle,
  createParcelStyle,
  createPlanningStyle,
  coverageStyle,
  hoverStyle,
  pinStyle,
  selectedParcelStyle,
  type StyleOptions,
} from '../styles.ts'
import type { LatLngZoom, Point as LatLng } from '../url-state.ts'
import { wheelZoomInteraction } from './wheel-zoom.ts'

export type TileSets = Partial<Record<TileLayerId, TileJson>>
export type BasemapKind = 'vector' | 'raster'

/** Layer visibility and look the user controls. */
export type LayerSettings = { planning: boolean; parcels: boolean; planningOpacity: number; basemap: BasemapKind; highContrast: boolean }

type Listener<T> = (value: T) => void

/** GeoJSON as the API sends it (the contract types it loosely). */
type ApiGeometry = Parcel['geometry']

function largestPolygon(g: MultiPolygon): Polygon | undefined {
  return g.getPolygons().reduce<Polygon | undefined>((best, p) => (!best || p.getArea() > best.getArea() ? p : best), undefined)
}

// Zoom limits are exclusive in OpenLayers (visible when zoom > minZoom): a hair below shows the level itself.
const fromZoom = (z: number) => z - 0.001

/** Data bounds in map units with a margin, so tiles are never asked for where there is no data. */
function dataExtent(tj: TileJson | undefined): Extent | undefined {
  if (!tj) return undefined
  const [w, s, e, n] = tj.bounds
  if (w <= -180 && e >= 180) return undefined
  const margin = 0.01
  return transformExtent([w - margin, s - margin, e + margin, n + margin], 'EPSG:4326', 'EPSG:3857')
}

function vectorTileSource(id: TileLayerId, tj: TileJson | undefined, maxZoom: number) {
  return new VectorTileSource({
    // The server's own TileJSON names the tile URL; without it the app's base URL is the fallback.
    format: new MVT(),
    url: tj?.tiles[0] ?? `${env.apiBaseUrl}/tiles/${id}/{z}/{x}/{y}.pbf`,
    tileSize: mapConfig.tileSize,
    minZoom: tj?.minzoom,
    maxZoom: Math.min(tj?.maxzoom ?? maxZoom, maxZoom),
    attributions: tj?.attribution,
    overlaps: id !== 'parcels',
  })
}

/**
 * The OpenLayers map and everything drawn on it, without React: layers from the server's tiles, the
 * national outline, hover and selection highlights and pins. The screen's components drive it through
 * these methods and hear about view changes through `onView`.
 */
export function createMapController(target: HTMLElement, init: { view?: LatLngZoom; settings: LayerSettings }) {
  let settings = init.settings
  const reduced = prefersReducedMotion()
  const start = init.view ?? mapConfig.fallbackCenter
  let map: OlMap | null = null

  const view = new View({
    center: fromLonLat([start.lng, start.lat]),
    zoom: start.zoom,
    maxZoom: mapConfig.viewMaxZoom,
    minZoom: 4,
    enableRotation: false,
  })

  const national = new VectorLayer({
    source: new VectorSource({ features: new GeoJSON().readFeatures(vietnamOutline, { featureProjection: 'EPSG:3857' }) }),
    maxZoom: mapConfig.nationalOutlineMaxZoom,
    declutter: 'national',
    zIndex: 1,
    properties: { name: 'national' },
  })
  const selectionSource = new VectorSource()
  const selection = new VectorLayer({ source: selectionSource, style: selectedParcelStyle, zIndex: 6, properties: { name: 'selection' } })
  const pinSource = new VectorSource()
  const pins = new VectorLayer({ source: pinSource, zIndex: 8, properties: { name: 'pins' } })

  map = new OlMap({
    target,
    view,
    keyboardEventTarget: target,
    controls: [new Attribution({ collapsible: true, collapsed: true, tipLabel: 'Nguồn dữ liệu bản đồ' }), new ScaleLine({ units: 'metric', minWidth: 72 })],
    interactions: defaultInteractions({
      keyboard: false,
      mouseWheelZoom: false,
      altShiftDragRotate: false,
      pinchRotate: false,
      zoomDuration: reduced ? 0 : 250,
    }).extend([new KeyboardPan({ pixelDelta: mapConfig.keyboardPanPx, duration: reduced ? 0 : 100 }), new KeyboardZoom({ duration: reduced ? 0 : 250 }), wheelZoomInteraction(() => map)]),
    layers: [national, selection, pins],
  })

  let raster: TileLayer<XYZ> | undefined
  let basemap: VectorTileLayer | undefined
  let planning: VectorTileLayer | undefined
  let parcels: VectorTileLayer | undefined
  let hover: VectorTileLayer | undefined
  let hoveredId: string | null = null
  let tileSets: TileSets = {}

  const styleOptions = (): StyleOptions => ({ highContrast: settings.highContrast })
  const hatch = createHatchPattern()
  const applyStyles = () => {
    const o = styleOptions()
    basemap?.setStyle(createBasemapStyle(o))
    planning?.setStyle(createPlanningStyle({ ...o, reserveFill: hatch ?? 'rgba(220,38,38,0.3)' }))
    parcels?.setStyle(createParcelStyle(o))
    national.setStyle(createNationalStyle(o))
  }
  const applyVisibility = () => {
    planning?.setVisible(settings.planning)
    planning?.setOpacity(settings.planningOpacity)
    parcels?.setVisible(settings.parcels)
    hover?.setVisible(settings.parcels)
    const useRaster = settings.basemap === 'raster' && raster !== undefined
    raster?.setVisible(useRaster)
    basemap?.setVisible(!useRaster)
  }

  /** Adds the tile layers once the TileJSONs are known (or failed: then with defaults). */
  function addTileLayers(sets: TileSets) {
    if (!map) return
    tileSets = sets
    const rasterInfo = sets.basemap?.raster
    if (rasterInfo) {
      raster = new TileLayer({
        source: new XYZ({ url: rasterInfo.tiles[0], tileSize: mapConfig.tileSize, maxZoom: Math.min(rasterInfo.maxzoom, mapConfig.rasterMaxZoom), attributions: rasterInfo.attribution, crossOrigin: 'anonymous' }),
        zIndex: 0,
        properties: { name: 'raster' },
      })
      map.addLayer(raster)
    }
    basemap = new VectorTileLayer({
      source: vectorTileSource('basemap', sets.basemap, mapConfig.vectorMaxZoom),
      declutter: 'labels',
      extent: dataExtent(sets.basemap),
      minZoom: fromZoom(sets.basemap?.minzoom ?? 10),
      zIndex: 2,
      properties: { name: 'basemap' },
    })
    planning = new VectorTileLayer({
      source: vectorTileSource('planning', sets.planning, mapConfig.vectorMaxZoom),
      declutter: 'planning',
      extent: dataExtent(sets.planning),
      minZoom: fromZoom(sets.planning?.minzoom ?? mapConfig.planningMinZoom),
      zIndex: 3,
      properties: { name: 'planning' },
    })
    const parcelSource = vectorTileSource('parcels', sets.parcels, mapConfig.parcelMaxZoom)
    const parcelMin = fromZoom(Math.max(sets.parcels?.minzoom ?? mapConfig.parcelMinZoom, mapConfig.parcelMinZoom))
    parcels = new VectorTileLayer({ source: parcelSource, declutter: 'labels', extent: dataExtent(sets.parcels), minZoom: parcelMin, zIndex: 4, properties: { name: 'parcels' } })
    // The hover outline shares the parcels' tiles: no extra request, drawn only for the parcel under the mouse.
    hover = new VectorTileLayer({
      source: parcelSource,
      renderMode: 'vector',
      extent: dataExtent(sets.parcels),
      minZoom: parcelMin,
      zIndex: 5,
      style: (f: FeatureLike) => (hoveredId !== null && String(f.get('id')) === hoveredId ? hoverStyle : undefined),
      properties: { name: 'hover' },
    })
    for (const l of [basemap, planning, parcels, hover]) map.addLayer(l)
    const dataBox = dataExtent(sets.basemap ?? sets.parcels)
    if (dataBox) {
      // Until the data itself is legible, a box shows where to zoom in.
      map.addLayer(new VectorLayer({ source: new VectorSource({ features: [new Feature(fromExtent(dataBox))] }), style: coverageStyle, maxZoom: 13, zIndex: 7, properties: { name: 'coverage' } }))
    }
    planning.getSource()?.on('tileloadend', () => scheduleLegend())
    applyStyles()
    applyVisibility()
    scheduleLegend()
  }

  const viewListeners = new Set<Listener<LatLngZoom>>()
  const legendListeners = new Set<Listener<{ code: string; color: string }[]>>()

  const currentView = (): LatLngZoom => {
    const [lng, lat] = toLonLat(view.getCenter() ?? fromLonLat([start.lng, start.lat])) as [number, number]
    return { lat, lng, zoom: view.getZoom() ?? start.zoom }
  }

  let legendTimer: ReturnType<typeof setTimeout> | undefined
  function scheduleLegend() {
    clearTimeout(legendTimer)
    legendTimer = setTimeout(() => {
      if (!map || !planning || !planning.getVisible()) {
        for (const l of legendListeners) l([])
        return
      }
      const extent = view.calculateExtent(map.getSize())
      const codes = planning
        .getFeaturesInExtent(extent)
        .filter((f) => f.get('layer') === 'zones')
        .map((f) => ({ code: String(f.get('land_use_code') ?? ''), color: String(f.get('color') ?? '#cccccc') }))
      for (const l of legendListeners) l(codes)
    }, 150)
  }

  map.on('moveend', () => {
    const v = currentView()
    for (const l of viewListeners) l(v)
    scheduleLegend()
  })

  const animateOr = (opts: { center?: number[]; zoom?: number }) => {
    if (view.getAnimating()) view.cancelAnimations()
    if (reduced) {
      if (opts.center) view.setCenter(opts.center)
      if (opts.zoom !== undefined) view.setZoom(opts.zoom)
    } else view.animate({ ...opts, duration: mapConfig.flyDurationMs })
  }

  const geojson = new GeoJSON({ dataProjection: 'EPSG:4326', featureProjection: 'EPSG:3857' })
  const readGeometry = (g: ApiGeometry) => geojson.readGeometry(g as GeoJsonGeometry)

  return {
    get map() {
      return map!
    },
    addTileLayers,
    tileSets: () => tileSets,
    /** The map element OpenLayers draws into (also the keyboard target). */
    target,
    view: currentView,
    onView(listener: Listener<LatLngZoom>) {
      viewListeners.add(listener)
      return () => viewListeners.delete(listener)
    },
    onLegend(listener: Listener<{ code: string; color: string }[]>) {
      legendListeners.add(listener)
      return () => legendListeners.delete(listener)
    },
    setSettings(next: LayerSettings) {
      const restyle = next.highContrast !== settings.highContrast
      settings = next
      if (restyle) applyStyles()
      applyVisibility()
      scheduleLegend()
    },
    hasRaster: () => raster !== undefined,
    /** Fits the view to the data's bounds (when the URL did not say where to open). */
    fitData() {
      const tj = tileSets.basemap ?? tileSets.parcels
      if (!tj || !map) return
      const extent = transformExtent(tj.bounds, 'EPSG:4326', 'EPSG:3857')
      // The whole area at a zoom where planning zones read as blocks; parcels appear as the user zooms in.
      view.fit(extent, { padding: [16, 16, 16, 16], maxZoom: 15.5 })
    },
    flyTo(p: LatLng, zoom?: number) {
      animateOr({ center: fromLonLat([p.lng, p.lat]), ...(zoom !== undefined ? { zoom } : {}) })
    },
    zoomBy(delta: number) {
      const z = view.getZoom() ?? start.zoom
      animateOr({ zoom: Math.max(view.getMinZoom(), Math.min(view.getMaxZoom(), z + delta)) })
    },
    /** Shows the whole geometry (a parcel from the API), not zooming in further than `maxZoom`. */
    fitGeometry(geometry: ApiGeometry, maxZoom: number = mapConfig.focusZoom) {
      if (!map) return
      const g = readGeometry(geometry)
      if (!g) return
      const extent = extendExtent(createEmpty(), g.getExtent())
      if (isEmpty(extent)) return
      view.fit(extent, { padding: [80, 40, 80, 40], maxZoom, duration: reduced ? 0 : mapConfig.flyDurationMs })
    },
    /** A point surely inside the parcel (a centroid can fall outside an L-shaped one), for looking it up. */
    interiorPoint(geometry: ApiGeometry): LatLng | null {
      const g = readGeometry(geometry)
      const at = g instanceof Polygon ? g.getInteriorPoint() : g instanceof MultiPolygon ? largestPolygon(g)?.getInteriorPoint() : undefined
      if (!at) return null
      const [lng, lat] = toLonLat(at.getCoordinates()) as [number, number]
      return { lat, lng }
    },
    setSelectedGeometry(geometry: ApiGeometry | null) {
      selectionSource.clear(true)
      const g = geometry && readGeometry(geometry)
      if (g) selectionSource.addFeature(new Feature(g))
    },
    /** The dropped pin and the point being looked up; null removes one. */
    setPoints(points: { pin: LatLng | null; lookup: LatLng | null }) {
      pinSource.clear(true)
      for (const kind of ['lookup', 'pin'] as const) {
        const p = points[kind]
        if (!p) continue
        const f = new Feature(new Point(fromLonLat([p.lng, p.lat])))
        f.setStyle(pinStyle(kind))
        pinSource.addFeature(f)
      }
    },
    /** The parcel id under a pixel, read from the parcels tiles already drawn (no request). */
    parcelIdAt(pixel: number[]): string | null {
      if (!map || !parcels || !parcels.getVisible()) return null
      const hit = map.getFeaturesAtPixel(pixel, { layerFilter: (l) => l === parcels, hitTolerance: 0 })[0]
      const id = hit?.get('id')
      return id === undefined || id === null ? null : String(id)
    },
    setHovered(id: string | null) {
      if (id === hoveredId) return
      hoveredId = id
      hover?.changed()
    },
    lngLatAt(pixel: number[]): LatLng {
      const [lng, lat] = toLonLat(map!.getCoordinateFromPixel(pixel)) as [number, number]
      return { lat, lng }
    },
    pixelOf(p: LatLng): number[] | null {
      return map?.getPixelFromCoordinate(fromLonLat([p.lng, p.lat])) ?? null
    },
    /**
     * Pans just enough that the point stays clear of what covers the map's edges (the phone's sheet at
     * the bottom with the chips above it, the desktop's side panel on the right).
     */
    keepVisible(p: LatLng, cover: { bottom: number; right: number }) {
      if (!map) return
      const size = map.getSize()
      const px = map.getPixelFromCoordinate(fromLonLat([p.lng, p.lat]))
      if (!size || !px) return
      const [w, h] = size as [number, number]
      const [x, y] = px as [number, number]
      const bottomLimit = h - cover.bottom - (cover.bottom > 0 ? 110 : 0)
      const rightLimit = w - cover.right - 48
      const dy = y > bottomLimit ? y - Math.max(80, (h - cover.bottom) / 2) : 0
      const dx = x > rightLimit ? x - (w - cover.right) / 2 : 0
      if (dx === 0 && dy === 0) return
      animateOr({ center: map.getCoordinateFromPixel([w / 2 + dx, h / 2 + dy]) })
    },
    resize() {
      map?.updateSize()
    },
    destroy() {
      clearTimeout(legendTimer)
      viewListeners.clear()
      legendListeners.clear()
      map?.setTarget(undefined)
      map?.dispose()
      map = null
    },
  }
}
export type MapController = ReturnType<typeof createMapController>
