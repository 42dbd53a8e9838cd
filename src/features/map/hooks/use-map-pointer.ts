import { useEffect, useRef } from 'react'
import type { MapController } from '../engine/map-controller.ts'
import { attachHover } from '../engine/hover.ts'
import { attachTaps } from '../engine/tap.ts'
import type { Point } from '../../../lib/map-url.ts'

export type PointerHandlers = {
  /** False while another tool (measuring, drawing) owns the pointer. */
  enabled: () => boolean
  onTap: (p: Point) => void
  onHold: (p: Point) => void
}

/** Taps, holds and the desktop hover outline on the map, always calling the latest handlers. */
export function useMapPointer(ctrl: MapController | null, handlers: PointerHandlers) {
  const latest = useRef(handlers)
  useEffect(() => {
    latest.current = handlers
  })
  useEffect(() => {
    if (!ctrl) return
    const offTaps = attachTaps(ctrl.map, {
      enabled: () => latest.current.enabled(),
      onTap: (px) => latest.current.onTap(ctrl.lngLatAt(px)),
      onHold: (px) => latest.current.onHold(ctrl.lngLatAt(px)),
    })
    const offHover = attachHover(ctrl, () => latest.current.enabled())
    return () => {
      offTaps()
      offHover()
    }
  }, [ctrl])
}
