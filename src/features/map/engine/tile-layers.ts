import Feature, { type FeatureLike } from 'ol/Feature'
import type OlMap from 'ol/Map'
import { buffer, getIntersection, getWidth, intersects, isEmpty, type Extent } from 'ol/extent'
import MVT from 'ol/format/MVT'
import { fromExtent } from 'ol/geom/Polygon'
import { inView } from 'ol/layer/Layer'
import TileLayer from 'ol/layer/Tile'
import VectorLayer from 'ol/layer/Vector'
import VectorTileLayer from 'ol/layer/VectorTile'
import { get as getProjection, transformExtent } from 'ol/proj'
import VectorSource from 'ol/source/Vector'
import VectorTileSource from 'ol/source/VectorTile'
import XYZ from 'ol/source/XYZ'
import type { TileJson, TileLayerId } from '#core/contract/tiles.ts'
import { env } from '../../../lib/env.ts'
import { mapConfig } from '../config.ts'
import { deepestTileLoader } from './deepest-tiles.ts'
import { importedBounds } from '../server-data.ts'
import { pageScheme, watchPageScheme, type ColorScheme } from '../page-scheme.ts'
import {
  createBasemapLabelStyle,
  createBasemapStyle,
  createCoverageStyle,
  createHatchPattern,
  createNationalStyle,
  createParcelStyle,
  createPlanningStyle,
  hoverStyle,
  paletteFor,
  type StyleOptions,
} from '../styles.ts'

export type TileSets = Partial<Record<TileLayerId, TileJson>>
export type BasemapKind = 'vector' | 'raster'

/** Layer visibility and look the user controls. */
export type LayerSettings = {
  planning: boolean
  parcels: boolean
  planningOpacity: number
  basemap: BasemapKind
  highContrast: boolean
}

/** The layers as the map opens: everything on, the app's own basemap, high contrast when the system asks for it. */
export function initialLayerSettings(): LayerSettings {
  return {
    planning: true,
    parcels: true,
    planningOpacity: mapConfig.planningOpacity,
    basemap: 'vector',
    highContrast: matchMedia('(prefers-contrast: more)').matches,
  }
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

/** The part of a tile beyond each edge the server also puts in it (its MVT buffer: 64 of 4096 units). */
export const TILE_BUFFER = 64 / 4096

/**
 * Whether a tile can hold any of the data: its box, with the server's buffer around it, meets the data's
 * bounds (both in map units). The others answer 204; the offline worker says so from the same bounds.
 */
export function tileMeetsData(tile: Extent, data: Extent): boolean {
  return intersects(buffer(tile, getWidth(tile) * TILE_BUFFER), data)
}

function vectorTileSource(id: TileLayerId, tj: TileJson | undefined, maxZoom: number) {
  const format = new MVT()
  const source = new VectorTileSource({
    // The server's own TileJSON names the tile URL; without it the app's base URL is the fallback.
    format,
    url: tj?.tiles[0] ?? `${env.apiBaseUrl}/tiles/${id}/{z}/{x}/{y}.pbf`,
    tileSize: mapConfig.tileSize,
    minZoom: tj?.minzoom,
    maxZoom: Math.min(tj?.maxzoom ?? maxZoom, maxZoom),
    attributions: tj?.attribution,
    overlaps: id !== 'parcels',
  })
  // Tiles beyond the data are neither asked for nor drawn: a tile without a URL is empty to OpenLayers,
  // so the first view no longer waits for (and paints) the empty ones around the data.
  const grid = source.getTileGrid()!
  if (tj) {
    const data = transformExtent(tj.bounds, 'EPSG:4326', 'EPSG:3857')
    const url = source.getTileUrlFunction()
    source.setTileUrlFunction((coord, pixelRatio, projection) =>
      tileMeetsData(grid.getTileCoordExtent(coord), data) ? url(coord, pixelRatio, projection) : undefined,
    )
  }
  // Deeper zooms than the device holds draw from the deepest tiles it does hold (see deepest-tiles.ts).
  const tileUrl = source.getTileUrlFunction()
  source.setTileLoadFunction(
    deepestTileLoader({
      format,
      grid,
      url: (coord) => tileUrl(coord, 1, getProjection('EPSG:3857')!),
      minZoom: tj?.minzoom ?? 0,
    }),
  )
  return source
}

function rasterLayer(sets: TileSets): TileLayer<XYZ> | undefined {
  const info = sets.basemap?.raster
  if (!info) return undefined
  return new TileLayer({
    source: new XYZ({
      url: info.tiles[0],
      tileSize: mapConfig.tileSize,
      maxZoom: Math.min(info.maxzoom, mapConfig.rasterMaxZoom),
      attributions: info.attribution,
      crossOrigin: 'anonymous',
    }),
    zIndex: 0,
    properties: { name: 'raster' },
  })
}

/** The layers drawn from the server's tiles, each named so tests and tools can find it. */
function buildDataLayers(sets: TileSets, hoveredId: () => string | null) {
  const basemap = new VectorTileLayer({
    source: vectorTileSource('basemap', sets.basemap, mapConfig.vectorMaxZoom),
    extent: dataExtent(sets.basemap),
    minZoom: fromZoom(sets.basemap?.minzoom ?? 10),
    zIndex: 2,
    properties: { name: 'basemap' },
  })
  // The basemap's names from the same tiles (no second request), drawn over the planning colours and
  // the parcel lines so they read at any planning opacity. All names share one declutter group, where
  // the higher layer wins: zone codes and parcel numbers give way to street and place names.
  // Text only, which every render mode draws as vectors each frame: in the default 'hybrid' mode the
  // layer would also make, clear and copy a tile-sized image per tile that stays blank.
  const basemapLabels = new VectorTileLayer({
    source: basemap.getSource()!,
    renderMode: 'vector',
    declutter: 'labels',
    extent: basemap.getExtent(),
    minZoom: basemap.getMinZoom(),
    zIndex: 4.5,
    properties: { name: 'basemap-labels' },
  })
  const planning = new VectorTileLayer({
    source: vectorTileSource('planning', sets.planning, mapConfig.vectorMaxZoom),
    declutter: 'labels',
    extent: dataExtent(sets.planning),
    minZoom: fromZoom(sets.planning?.minzoom ?? mapConfig.planningMinZoom),
    zIndex: 3,
    properties: { name: 'planning' },
  })
  const parcelSource = vectorTileSource('parcels', sets.parcels, mapConfig.parcelMaxZoom)
  const parcelMin = fromZoom(Math.max(sets.parcels?.minzoom ?? mapConfig.parcelMinZoom, mapConfig.parcelMinZoom))
  const parcels = new VectorTileLayer({
    source: parcelSource,
    declutter: 'labels',
    extent: dataExtent(sets.parcels),
    minZoom: parcelMin,
    zIndex: 4,
    properties: { name: 'parcels' },
  })
  // The hover outline shares the parcels' tiles: no extra request, drawn only for the parcel under the mouse.
  const hover = new VectorTileLayer({
    source: parcelSource,
    renderMode: 'vector',
    extent: dataExtent(sets.parcels),
    minZoom: parcelMin,
    zIndex: 5,
    style: (f: FeatureLike) => {
      const id = hoveredId()
      return id !== null && String(f.get('id')) === id ? hoverStyle : undefined
    },
    properties: { name: 'hover' },
  })
  const imported = importedBounds(sets)
  const dataBox = imported ? transformExtent(imported, 'EPSG:4326', 'EPSG:3857') : undefined
  // Until the data itself is legible, a box shows where to zoom in: where the parcels and plans are, not
  // the basemap, which spans the country with the national boundaries.
  const coverage = dataBox
    ? new VectorLayer({
        source: new VectorSource({ features: [new Feature(fromExtent(dataBox))] }),
        maxZoom: 13,
        zIndex: 7,
        properties: { name: 'coverage' },
      })
    : undefined
  return { raster: rasterLayer(sets), basemap, basemapLabels, planning, parcels, hover, coverage }
}
type DataLayers = ReturnType<typeof buildDataLayers>

/** Starts fetching a tile the map is about to ask for; its own request then takes the answer over. */
function preloadTile(url: string) {
  const link = document.createElement('link')
  link.rel = 'preload'
  link.as = 'fetch'
  // As OpenLayers asks: a same-origin request in CORS mode, so the preloaded answer is the one it gets.
  link.crossOrigin = 'anonymous'
  link.href = url
  document.head.appendChild(link)
}

/**
 * The tile layers and how they look: added once the TileJSONs are known (or failed: then with defaults),
 * restyled and shown or hidden as the user's layer settings change, and the hover outline.
 */
export function createTileLayers(map: OlMap, national: VectorLayer, initial: LayerSettings) {
  let settings = initial
  let layers: Partial<DataLayers> = {}
  let hoveredId: string | null = null
  let tileSets: TileSets = {}
  let added = false
  const hatch = createHatchPattern()
  let scheme = pageScheme()
  const outlineEverywhere = (zoom: number) => zoom <= mapConfig.nationalOutlineMaxZoom
  // Until the TileJSONs are read, whether the view holds data is not known: the outline waits for them
  // (drawing it only to hide it a moment later cost a whole frame), except at the zooms it always shows.
  national.setVisible(outlineEverywhere(map.getView().getZoom() ?? 0))

  // New style functions restyle the features of the tiles already loaded: nothing is asked for again.
  const applyStyles = () => {
    const o: StyleOptions = { scheme, highContrast: settings.highContrast }
    const viewport = map.getViewport()
    if (viewport) viewport.style.backgroundColor = paletteFor(o).land
    layers.basemap?.setStyle(createBasemapStyle(o))
    layers.basemapLabels?.setStyle(createBasemapLabelStyle(o))
    layers.planning?.setStyle(createPlanningStyle({ ...o, reserveFill: hatch ?? 'rgba(220,38,38,0.3)' }))
    layers.parcels?.setStyle(createParcelStyle(o))
    layers.coverage?.setStyle(createCoverageStyle(o))
    national.setStyle(createNationalStyle(o, { boundaries: tileSets.basemap?.boundaries !== undefined }))
  }
  const applyVisibility = () => {
    const { raster, basemap, basemapLabels, planning, parcels, hover } = layers
    planning?.setVisible(settings.planning)
    planning?.setOpacity(settings.planningOpacity)
    parcels?.setVisible(settings.parcels)
    hover?.setVisible(settings.parcels)
    const useRaster = settings.basemap === 'raster' && raster !== undefined
    raster?.setVisible(useRaster)
    basemap?.setVisible(!useRaster)
    basemapLabels?.setVisible(!useRaster)
  }
  // The outline's own look from the start (it may be drawn before the tile layers exist).
  applyStyles()

  // The map follows the page's colour scheme while it is on the page (the watch ends with the map).
  const setScheme = (next: ColorScheme) => {
    if (next === scheme) return
    scheme = next
    applyStyles()
  }
  let unwatch: (() => void) | undefined
  const watchWhileOnPage = () => {
    unwatch?.()
    unwatch = undefined
    if (!map.getTargetElement()) return
    setScheme(pageScheme())
    unwatch = watchPageScheme(setScheme)
  }
  watchWhileOnPage()
  map.on('change:target', watchWhileOnPage)

  return {
    add(sets: TileSets) {
      tileSets = sets
      added = true
      const built = buildDataLayers(sets, () => hoveredId)
      layers = built
      for (const l of [
        built.raster,
        built.basemap,
        built.basemapLabels,
        built.planning,
        built.parcels,
        built.hover,
        built.coverage,
      ])
        if (l) map.addLayer(l)
      applyStyles()
      applyVisibility()
      return built.planning
    },
    tileSets: () => tileSets,
    /**
     * Asks at once for the vector tiles the view draws first. OpenLayers asks for a view's tiles only
     * after drawing a frame of it, and the first frame with the tile layers (their canvases made) is a
     * long one on a slow phone, with the link idle meanwhile.
     */
    preloadFirstTiles() {
      const size = map.getSize()
      if (!size) return
      const view = map.getView().getState()
      const extent = map.getView().calculateExtent(size)
      for (const layer of [layers.basemap, layers.planning, layers.parcels]) {
        const source = layer?.getSource()
        if (!layer || !source || !inView(layer.getLayerState(), view)) continue
        const box = getIntersection(extent, layer.getExtent() ?? extent)
        if (isEmpty(box)) continue
        const grid = source.getTileGrid()!
        const urlOf = source.getTileUrlFunction()
        grid.forEachTileCoord(box, grid.getZForResolution(view.resolution, source.zDirection), (coord) => {
          const url = urlOf(coord, map.getPixelRatio(), view.projection)
          if (url) preloadTile(url)
        })
      }
    },
    planning: () => layers.planning,
    hasRaster: () => layers.raster !== undefined,
    /**
     * The national outline up to z10, and beyond it wherever the view holds none of the basemap's own
     * data (a province with no imported data, the sea, the archipelagos): there its land lies under the
     * national boundaries, so no zoom shows an empty page.
     */
    updateNational(view: Extent, zoom: number) {
      const own = tileSets.basemap?.data_bounds
      const data = own
        ? transformExtent(own, 'EPSG:4326', 'EPSG:3857')
        : tileSets.basemap?.boundaries
          ? undefined
          : dataExtent(tileSets.basemap)
      national.setVisible(outlineEverywhere(zoom) || (added && (data === undefined || !intersects(view, data))))
    },
    setSettings(next: LayerSettings) {
      const restyle = next.highContrast !== settings.highContrast
      settings = next
      if (restyle) applyStyles()
      applyVisibility()
    },
    /** The parcel id under a pixel, read from the parcels tiles already drawn (no request). */
    parcelIdAt(pixel: number[]): string | null {
      const parcels = layers.parcels
      if (!parcels || !parcels.getVisible()) return null
      const hit = map.getFeaturesAtPixel(pixel, { layerFilter: (l) => l === parcels, hitTolerance: 0 })[0]
      const id = hit?.get('id')
      return id === undefined || id === null ? null : String(id)
    },
    setHovered(id: string | null) {
      if (id === hoveredId) return
      hoveredId = id
      layers.hover?.changed()
    },
  }
}
