import type MapView from './MapView.tsx'
import { hasBootMap } from './boot/handoff.ts'
import { prefetchTileSets } from '../../lib/tilejson.ts'
import { searchBoxChunk } from './search-box-chunk.ts'

export type MapViewComponent = typeof MapView

let loaded: MapViewComponent | null = null

/** The map view if its chunk has already loaded, so the page can draw it at once; else null. */
export const loadedMapView = (): MapViewComponent | null => loaded

/**
 * The map view's chunk (OpenLayers), fetched once: the route's loader starts it beside the route's own
 * chunk, and the page waits for the same promise. The search box's chunk starts with it (the map view
 * shows it at once); its failure shows in the box's place, not here.
 */
export const loadMapView = (): Promise<MapViewComponent> => {
  searchBoxChunk.preload().catch(() => {})
  return import('./MapView.tsx').then((m) => (loaded = m.default))
}

/**
 * What the map view needs, started on entering the route beside the route's own chunk: its code and the
 * TileJSONs (one round trip less before the first tiles), unless index.html's boot map has its own.
 */
export function prepareMapView(): void {
  loadMapView().catch(() => {})
  if (!hasBootMap()) prefetchTileSets()
}
