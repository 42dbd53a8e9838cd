import { useEffect, useState, type RefObject } from 'react'
import { mapConfig } from '../config.ts'
import { createMapController, initialLayerSettings, type MapController } from '../engine/map-controller.ts'
import { fetchTileSets } from '../../../lib/tilejson.ts'
import type { LatLngZoom } from '../../../lib/map-url.ts'

/**
 * The map, made once when its element is in the page and destroyed with the screen, and the view it
 * shows (followed as the user moves it). `ctrl` is null until the map exists.
 */
export function useMapController(target: RefObject<HTMLDivElement | null>, start: LatLngZoom | undefined) {
  const [ctrl, setCtrl] = useState<MapController | null>(null)
  const [view, setView] = useState<LatLngZoom>(start ?? mapConfig.fallbackCenter)
  useEffect(() => {
    const tileSets = new AbortController()
    const c = createMapController(target.current!, { view: start, settings: initialLayerSettings(), tileSets: fetchTileSets(tileSets.signal) })
    const offView = c.onView(setView)
    setCtrl(c)
    return () => {
      tileSets.abort()
      offView()
      c.destroy()
    }
    // The map is made once; later changes go through the controller's methods.
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [])
  return { ctrl, view }
}
