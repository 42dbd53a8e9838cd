import { useEffect, useMemo, useRef } from 'react'
import { useAtom } from 'jotai'
import { transformExtent } from 'ol/proj'
import type { Bbox } from '#core/offline/tile-grid.ts'
import { createOverlayLayers } from '../engine/overlay-layers.ts'
import type { MapController } from '../engine/map-controller.ts'
import {
  choiceOf,
  fetchOverlays,
  overlayChoicesAtom,
  overlaysAtom,
  overlaysIn,
  type OverlayChoice,
} from '../overlays.ts'
import type { LatLngZoom } from '../../../lib/map-url.ts'

/**
 * The raster planning overlays on the map: the server's list read once, each drawn as the user chose
 * (on/off, opacity, remembered on the device), and those of the visible area for the layers panel.
 */
export function useOverlays(ctrl: MapController | null, view: LatLngZoom) {
  const [list, setList] = useAtom(overlaysAtom)
  const [choices, setChoices] = useAtom(overlayChoicesAtom)
  const layers = useRef<ReturnType<typeof createOverlayLayers> | null>(null)

  useEffect(() => {
    if (!ctrl) return
    layers.current = createOverlayLayers(ctrl.map)
    const abort = new AbortController()
    fetchOverlays(abort.signal).then(
      (l) => !abort.signal.aborted && setList(l),
      (err: unknown) =>
        !abort.signal.aborted && console.info('overlays unavailable:', err instanceof Error ? err.message : err),
    )
    return () => abort.abort()
  }, [ctrl, setList])

  useEffect(() => layers.current?.sync(list, (id) => choiceOf(choices, id)), [ctrl, list, choices])

  const visible = useMemo(() => {
    if (!ctrl) return []
    const size = ctrl.map.getSize()
    if (!size) return list
    const bbox = transformExtent(ctrl.map.getView().calculateExtent(size), 'EPSG:3857', 'EPSG:4326') as Bbox
    return overlaysIn(list, bbox)
    // The view state changes whenever the map moves; the extent is read from the map then.
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [ctrl, list, view])

  const setChoice = (id: string, patch: Partial<OverlayChoice>) =>
    setChoices((all) => ({ ...all, [id]: { ...choiceOf(all, id), ...patch } }))
  return { visible, choices, setChoice }
}
