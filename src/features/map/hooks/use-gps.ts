import { useCallback, useEffect, useRef, useState } from 'react'
import type { MapController } from '../engine/map-controller.ts'
import { createGps, type GpsController, type GpsState } from '../engine/gps.ts'

/**
 * The device's position on the map and the locate button's cycle: off → on and following → on without
 * following (after a pan; pressing returns to the position) → off.
 */
export function useGps(ctrl: MapController | null) {
  const [state, setState] = useState<GpsState>({ status: 'off' })
  const gps = useRef<GpsController | null>(null)

  useEffect(() => {
    if (!ctrl) return
    const g = createGps(ctrl.map, setState)
    gps.current = g
    return () => {
      g.dispose()
      gps.current = null
    }
  }, [ctrl])

  const toggle = useCallback(() => {
    const g = gps.current
    if (!g) return
    if (state.status === 'off' || state.status === 'error') g.start()
    else if (state.status === 'on' && !state.following) g.follow()
    else g.stop()
  }, [state])

  const stop = useCallback(() => gps.current?.stop(), [])

  return { state, toggle, stop }
}
export type Gps = ReturnType<typeof useGps>
