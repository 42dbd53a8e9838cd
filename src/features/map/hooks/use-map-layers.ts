import { useEffect, useState } from 'react'
import {
  initialLayerSettings,
  type LayerSettings,
  type MapController,
  type TileSets,
} from '../engine/map-controller.ts'
import { legendFor, type LegendEntry } from '../land-use.ts'

/**
 * The map's layers as the user's layer settings say (the controller adds them once the server's
 * TileJSONs are read), the legend of the planning zones on screen, and the TileJSONs themselves (null
 * until read): what data the server holds and where.
 */
export function useMapLayers(ctrl: MapController | null) {
  const [settings, setSettings] = useState<LayerSettings>(initialLayerSettings)
  const [hasRaster, setHasRaster] = useState(false)
  const [tileSets, setTileSets] = useState<TileSets | null>(null)
  const [legend, setLegend] = useState<{ entries: LegendEntry[]; reserves: boolean }>({ entries: [], reserves: false })

  useEffect(() => {
    if (!ctrl) return
    let live = true
    void ctrl.layersAdded.then(() => {
      if (!live) return
      setTileSets(ctrl.tileSets())
      setHasRaster(ctrl.hasRaster())
      // A deployment that configures a raster basemap wants it seen; the app's own stays one tap away.
      // Offline the app's own is the one kept on the device (third-party raster tiles are not cached).
      if (ctrl.hasRaster() && navigator.onLine) setSettings((s) => ({ ...s, basemap: 'raster' }))
    })
    const offLegend = ctrl.onLegend((codes) => setLegend({ entries: legendFor(codes.zones), reserves: codes.reserves }))
    return () => {
      live = false
      offLegend()
    }
  }, [ctrl])

  useEffect(() => ctrl?.setSettings(settings), [ctrl, settings])

  return { settings, setSettings, hasRaster, legend, tileSets }
}
