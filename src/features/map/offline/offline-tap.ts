import { useCallback, useEffect, useState } from 'react'
import { useAtom } from 'jotai'
import type { MapController } from '../engine/map-controller.ts'
import type { Point } from '../../../lib/map-url.ts'
import { historyFocusAtom } from '../../history/index.ts'
import type { OfflineTapState } from './offline-answer.ts'

export type { OfflineTapState, TileFacts } from './offline-answer.ts'

/**
 * Taps while offline (or when the server cannot be reached): the stored result for the parcel when the
 * history has one, marked with its time and not counted; otherwise what the saved tiles show (parcel
 * numbers, zone code and colour), marked offline; otherwise a plain "cần kết nối". Also shows a
 * history entry the user chose to see on the map. The code behind it loads only when first needed.
 */
export function useOfflineTap(ctrl: MapController | null) {
  const [state, setState] = useState<OfflineTapState | null>(null)
  const [focus, setFocus] = useAtom(historyFocusAtom)

  const show = useCallback(
    (next: OfflineTapState | null) => {
      setState(next)
      ctrl?.setSelectedGeometry(next?.kind === 'stored' ? (next.data.parcel?.geometry ?? null) : null)
    },
    [ctrl],
  )

  /** Answers the tap offline; false when online (the map looks up as usual), unless forced (the server was unreachable). */
  const answer = useCallback(
    async (point: Point, force = false): Promise<boolean> => {
      if (!ctrl || (!force && navigator.onLine)) {
        setState(null)
        return false
      }
      const { offlineAnswer } = await import('./offline-answer.ts')
      show(await offlineAnswer(ctrl, point))
      return true
    },
    [ctrl, show],
  )

  /** Shows today's stored result for the point, if there is one; true when it did (nothing is counted). */
  const answerFromToday = useCallback(
    async (point: Point): Promise<boolean> => {
      if (!ctrl) return false
      const { storedToday } = await import('./offline-answer.ts')
      const stored = await storedToday(ctrl, point)
      if (stored) show(stored)
      return stored !== null
    },
    [ctrl, show],
  )

  useEffect(() => {
    if (!ctrl || !focus) return
    setFocus(null)
    void import('./offline-answer.ts').then(({ storedEntry }) => storedEntry(focus)).then((s) => s && show(s))
  }, [ctrl, focus, setFocus, show])

  const close = useCallback(() => show(null), [show])

  return { state, answer, answerFromToday, close }
}
export type OfflineTap = ReturnType<typeof useOfflineTap>
