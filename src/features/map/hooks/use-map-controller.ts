import { useLayoutEffect, useState, type RefObject } from 'react'
import { mapConfig } from '../config.ts'
import { adoptBootMap } from '../boot/handoff.ts'
import { createMapController, initialLayerSettings, type MapController } from '../engine/map-controller.ts'
import { fetchTileSets } from '../../../lib/tilejson.ts'
import type { LatLngZoom } from '../../../lib/map-url.ts'

/**
 * The map, made once when its element is in the page and destroyed with the screen, and the view it
 * shows (followed as the user moves it). `ctrl` is null until the map exists. On a page that opened on
 * /demo the map usually exists already (index.html's boot map, see boot/): it is moved into the element
 * instead, before the browser paints, so it stays on screen.
 */
export function useMapController(target: RefObject<HTMLDivElement | null>, start: LatLngZoom | undefined) {
  const [ctrl, setCtrl] = useState<MapController | null>(null)
  const [view, setView] = useState<LatLngZoom>(start ?? mapConfig.fallbackCenter)
  useLayoutEffect(() => {
    const tileSets = new AbortController()
    const element = target.current!
    const c =
      adoptBootMap(element, start) ??
      createMapController(element, {
        view: start,
        settings: initialLayerSettings(),
        tileSets: fetchTileSets(tileSets.signal),
      })
    // The boot map may have been moved, or fitted to the data, before the view took it over.
    setView(c.view())
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
