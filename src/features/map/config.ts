/**
 * The map's constants in one place: the seed's defaults for tiles, pointer handling and the keyboard.
 * Everything that draws or reacts to input reads them from here.
 */
export const mapConfig = {
  /** Pixel size of one tile, raster and vector. */
  tileSize: 256,
  /**
   * The map draws at most this many device pixels per CSS pixel. Drawing costs grow with the square of the
   * ratio, and phones of 2.6–3 draw 1.7–2.25 times the pixels of 2 for lines and labels that read the same.
   */
  maxPixelRatio: 2,
  /** Raster basemaps (TILE_URL) stop here; the map scales their last level beyond it. */
  rasterMaxZoom: 18,
  /** Vector basemap and planning are rendered by the server up to this zoom, then over-zoomed. */
  vectorMaxZoom: 18,
  /** Parcels keep their own tiles up to here; also the view's deepest zoom. */
  parcelMaxZoom: 20,
  viewMaxZoom: 20,
  /** Parcel outlines and numbers appear from this zoom. */
  parcelMinZoom: 16,
  /** Planning zones appear from this zoom (the server's planning tiles start here). */
  planningMinZoom: 12,
  /** Up to this zoom the bundled national outline (with Hoàng Sa and Trường Sa) is drawn everywhere; beyond it only where the basemap has no data. */
  nationalOutlineMaxZoom: 10,
  /** Desktop hover highlight runs at most once per this many ms. */
  hoverThrottleMs: 32,
  /** Holding a finger or button this long drops a pin instead of looking up. */
  tapHoldMs: 600,
  /** A press that moves less than this many px is still a tap. */
  tapTolerancePx: 15,
  /** A second tap within this many ms is a double-tap zoom, not two lookups. */
  doubleTapMs: 250,
  /** Arrow keys pan the map by this many px. */
  keyboardPanPx: 80,
  /** Wheel events closer together than this are summed into one zoom step. */
  wheelDebounceMs: 40,
  /** This many px of wheel movement zoom one level. */
  wheelPxPerZoom: 60,
  /** Search waits this long after the last key before asking the server. */
  searchDebounceMs: 250,
  /** From this zoom the map shows about one ward, and search looks in the ward at its centre first. */
  wardSearchMinZoom: 14,
  /** Fly-to animation length; zero when the user prefers reduced motion. */
  flyDurationMs: 700,
  /** Zoom a search result or a typed coordinate is shown at. */
  focusZoom: 19,
  /** Default planning overlay opacity (0..1). */
  planningOpacity: 0.6,
  /** Ho Chi Minh City centre, used only while the server's TileJSON cannot be read. */
  fallbackCenter: { lat: 10.7769, lng: 106.7009, zoom: 15 },
} as const

/** Width from which the result shows as a side panel rather than a bottom sheet. */
export const DESKTOP_MEDIA = '(min-width: 768px)'

export function prefersReducedMotion(): boolean {
  return typeof matchMedia === 'function' && matchMedia('(prefers-reduced-motion: reduce)').matches
}

/** Web Mercator zoom of a resolution (m/px) with the configured tile size. */
export function zoomForResolution(resolution: number): number {
  const z0 = (2 * Math.PI * 6378137) / mapConfig.tileSize
  return Math.log2(z0 / resolution)
}
