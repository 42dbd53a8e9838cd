import type OlMap from 'ol/Map'
import type VectorTileLayer from 'ol/layer/VectorTile'

/** What the legend explains: the zones' codes and colours on screen, and whether a road reserve is among them. */
export type LegendCodes = { zones: { code: string; color: string }[]; reserves: boolean }
type Listener = (codes: LegendCodes) => void

/**
 * The planning zones on screen, for the legend: read from the drawn planning tiles a moment after the
 * view or the tiles settle, and told to every listener (nothing while planning is hidden). A listener
 * added later (the app's map view taking over a map that was drawn before it) hears the last reading at once.
 */
export function createLegendWatch(map: () => OlMap | null, planning: () => VectorTileLayer | undefined) {
  const listeners = new Set<Listener>()
  let timer: ReturnType<typeof setTimeout> | undefined
  let last: LegendCodes | null = null
  const tell = (codes: LegendCodes) => {
    last = codes
    for (const l of listeners) l(codes)
  }
  const read = () => {
    const m = map()
    const layer = planning()
    if (!m || !layer || !layer.getVisible()) return tell({ zones: [], reserves: false })
    const features = layer.getFeaturesInExtent(m.getView().calculateExtent(m.getSize()))
    const zones = features
      .filter((f) => f.get('layer') === 'zones')
      .map((f) => ({ code: String(f.get('land_use_code') ?? ''), color: String(f.get('color') ?? '#cccccc') }))
    tell({ zones, reserves: features.some((f) => f.get('layer') === 'road_reserves') })
  }
  return {
    schedule() {
      clearTimeout(timer)
      timer = setTimeout(read, 150)
    },
    on(listener: Listener) {
      listeners.add(listener)
      if (last) listener(last)
      return () => listeners.delete(listener)
    },
    dispose() {
      clearTimeout(timer)
      listeners.clear()
    },
  }
}
