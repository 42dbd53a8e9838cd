import type OlMap from 'ol/Map'
import type VectorTileLayer from 'ol/layer/VectorTile'

export type LegendCodes = { code: string; color: string }[]
type Listener = (codes: LegendCodes) => void

/**
 * The planning zones on screen, for the legend: read from the drawn planning tiles a moment after the
 * view or the tiles settle, and told to every listener (an empty list while planning is hidden).
 */
export function createLegendWatch(map: () => OlMap | null, planning: () => VectorTileLayer | undefined) {
  const listeners = new Set<Listener>()
  let timer: ReturnType<typeof setTimeout> | undefined
  const tell = (codes: LegendCodes) => {
    for (const l of listeners) l(codes)
  }
  const read = () => {
    const m = map()
    const layer = planning()
    if (!m || !layer || !layer.getVisible()) return tell([])
    const extent = m.getView().calculateExtent(m.getSize())
    const codes = layer
      .getFeaturesInExtent(extent)
      .filter((f) => f.get('layer') === 'zones')
      .map((f) => ({ code: String(f.get('land_use_code') ?? ''), color: String(f.get('color') ?? '#cccccc') }))
    tell(codes)
  }
  return {
    schedule() {
      clearTimeout(timer)
      timer = setTimeout(read, 150)
    },
    on(listener: Listener) {
      listeners.add(listener)
      return () => listeners.delete(listener)
    },
    dispose() {
      clearTimeout(timer)
      listeners.clear()
    },
  }
}
