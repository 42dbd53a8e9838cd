import { useCallback, useEffect, useRef, useState } from 'react'
import { alarming, usePosition, type PositionSnapshot } from '../../position/index.ts'
import type { MapController } from '../engine/map-controller.ts'
import { centreOn, createGpsLayer, type GpsState } from '../engine/gps.ts'

function stateOf(on: boolean, following: boolean, p: PositionSnapshot): GpsState {
  if (!on) return { status: 'off' }
  if (p.status === 'error') return { status: 'error', message: p.phoneError ?? 'Không định vị được.' }
  return p.fix ? { status: 'on', fix: p.fix, following } : { status: 'locating', following }
}

/**
 * The app's position on the map (the phone's or the receiver's, from the one position source) and the
 * locate button's cycle: off → on and following → on without following (after a pan; pressing returns
 * to the position) → off. The dot turns red with the readout when the position goes stale.
 */
export function useGps(ctrl: MapController | null) {
  const [on, setOn] = useState(false)
  const [following, setFollowing] = useState(false)
  const position = usePosition(on)
  const layer = useRef<ReturnType<typeof createGpsLayer> | null>(null)
  const firstFix = useRef(true)

  useEffect(() => {
    if (!ctrl) return
    // The map itself, not the controller's property, which is gone by the time the view unmounts.
    const map = ctrl.map
    const l = createGpsLayer(map)
    layer.current = l
    // Panning by hand ends follow mode; the locate button turns it back on.
    const onDrag = () => setFollowing(false)
    map.on('pointerdrag', onDrag)
    return () => {
      map.un('pointerdrag', onDrag)
      l.dispose()
      layer.current = null
    }
  }, [ctrl])

  const fix = on ? position.fix : null
  const alarm = alarming(position)
  useEffect(() => {
    if (!fix) return layer.current?.clear()
    layer.current?.draw(fix, alarm)
  }, [fix, alarm])

  useEffect(() => {
    if (!ctrl || !fix || !following) return
    centreOn(ctrl.map, fix, firstFix.current)
    firstFix.current = false
  }, [ctrl, fix, following])

  const state = stateOf(on, following, position)
  const toggle = useCallback(() => {
    if (state.status === 'off' || state.status === 'error') {
      firstFix.current = true
      setOn(true)
      setFollowing(true)
    } else if (state.status === 'on' && !state.following) setFollowing(true)
    else {
      setOn(false)
      setFollowing(false)
    }
  }, [state])

  const stop = useCallback(() => {
    setOn(false)
    setFollowing(false)
  }, [])

  return { state, position, toggle, stop }
}
export type Gps = ReturnType<typeof useGps>
