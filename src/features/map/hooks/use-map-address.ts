import { useEffect, useRef } from 'react'
import { encodeMapHash, type LatLngZoom, type MapUrlState, type Point } from '../../../lib/map-url.ts'

function currentUrl(state: MapUrlState): string {
  return `${location.origin}${location.pathname}${encodeMapHash(state)}`
}

/**
 * The address follows the map (replaceState: moving the map adds no history entries). A moving view is
 * written once it settles; a chosen point or pin at once, so the address never names a parcel the screen
 * has already dropped (a lookup that found nothing clears it together with its toast, even on a slow phone).
 * Returns the link to this view, selection and pin, for sharing.
 */
export function useMapAddress(view: LatLngZoom, selectedPoint: Point | undefined, pin: Point | null): string {
  const marks = useRef({ selectedPoint, pin })
  useEffect(() => {
    const write = () => {
      const hash = encodeMapHash({
        view,
        ...(selectedPoint ? { selection: selectedPoint } : {}),
        ...(pin ? { pin } : {}),
      })
      if (location.hash !== hash)
        history.replaceState(history.state, '', `${location.pathname}${location.search}${hash}`)
    }
    if (marks.current.selectedPoint !== selectedPoint || marks.current.pin !== pin) {
      marks.current = { selectedPoint, pin }
      return write()
    }
    const t = setTimeout(write, 250)
    return () => clearTimeout(t)
  }, [view, selectedPoint, pin])
  return currentUrl({ view, ...(selectedPoint ? { selection: selectedPoint } : {}), ...(pin ? { pin } : {}) })
}
