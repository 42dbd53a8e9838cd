import { useEffect, useState } from 'react'
import type { LayerSettings, MapController } from '../engine/map-controller.ts'
import { legendFor, type LegendEntry } from '../land-use.ts'
import { fetchTileSets } from '../../../lib/tilejson.ts'
import { initialLayerSettings } from './use-map-controller.ts'

/**
 * The map's layers: added once the server's TileJSONs are read, shown as the user's layer settings say,
 * and the legend of the planning zones on screen. `fitData` fits the view to the data when the address
 * did not say where to open.
 */
export function useMapLayers(ctrl: MapController | null, fitData: boolean) {
  const [settings, setSettings] = useState<LayerSettings>(initialLayerSettings)
  const [hasRaster, setHasRaster] = useState(false)
  const [legend, setLegend] = useState<{ entries: LegendEntry[]; reserves: boolean }>({ entries: [], reserves: false })

  useEffect(() => {
    if (!ctrl) return
    const tiles = new AbortController()
    void fetchTileSets(tiles.signal).then((sets) => {
      if (tiles.signal.aborted) return
      ctrl.addTileLayers(sets)
      setHasRaster(ctrl.hasRaster())
      // A deployment that configures a raster basemap wants it seen; the app's own stays one tap away.
      // Offline the app's own is the one kept on the device (third-party raster tiles are not cached).
      if (ctrl.hasRaster() && navigator.onLine) setSettings((s) => ({ ...s, basemap: 'raster' }))
      if (fitData) ctrl.fitData()
    })
    const offLegend = ctrl.onLegend((codes) => setLegend({ entries: legendFor(codes.zones), reserves: codes.reserves }))
    return () => {
      tiles.abort()
      offLegend()
    }
    // Tiles are added once per map; `fitData` is fixed when the screen opens.
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [ctrl])

  useEffect(() => ctrl?.setSettings(settings), [ctrl, settings])

  return { settings, setSettings, hasRaster, legend }
}
