import { useCallback, useEffect, useRef, useState } from 'react'
import { store } from '../../../lib/store.ts'
import { isSessionValid, sessionAtom } from '../../auth/index.ts'
import type { MapController } from '../engine/map-controller.ts'
import type { Selection } from '../selection.ts'
import type { Point } from '../../../lib/map-url.ts'

export type TapLookupOptions = {
  /** Answers the point without the server (offline, or forced when the server could not be reached); false when it did not. */
  answerOffline: (point: Point, force?: boolean) => Promise<boolean>
  /** Shows the point's result from today's history; false when there is none. */
  answerFromToday: (point: Point) => Promise<boolean>
  /** The point a shared link opened with, looked up once the map is there. */
  restore: Point | undefined
  loggedIn: boolean
  /** Says the outcome to screen readers. */
  announce: (text: string) => void
}

/**
 * Looking up the parcel at a point: the selection and where its lookup stands, one lookup at a time
 * (a newer one cancels the older), the chosen parcel outlined, and a shared link's parcel reopened.
 */
export function useTapLookup(
  ctrl: MapController | null,
  { answerOffline, answerFromToday, restore, loggedIn, announce }: TapLookupOptions,
) {
  const [selection, setSelection] = useState<Selection | null>(null)
  // The browser can believe it is online while the server cannot be reached (no signal, a captive
  // network): the last lookup's failure says so, and the next answer from the server clears it.
  const [unreachable, setUnreachable] = useState(false)
  const lookupAbort = useRef<AbortController | null>(null)

  const lookupAt = useCallback(
    async (point: Point) => {
      if (!ctrl) return
      // Offline, the stored result or the saved tiles answer instead, and nothing is counted.
      if (await answerOffline(point)) return setSelection(null)
      lookupAbort.current?.abort()
      const abort = new AbortController()
      lookupAbort.current = abort
      setSelection({ point, status: 'loading', waitingForLogin: !isSessionValid(store.get(sessionAtom)) })
      ctrl.setSelectedGeometry(null)
      const { lookupPlanning, placeAt } = await import('../lookup.ts')
      if (abort.signal.aborted) return
      const res = await lookupPlanning(point, abort.signal)
      if (abort.signal.aborted) return
      setUnreachable(!res.ok && (res.code === 'Offline' || res.code === 'Network'))
      if (res.ok) {
        setSelection({ point, status: 'ready', result: res.data })
        const { parcel } = res.data
        ctrl.setSelectedGeometry(parcel?.geometry ?? null)
        announce(
          parcel
            ? `Đã tìm thấy tờ ${parcel.sheet_no}, thửa ${parcel.parcel_no}.`
            : 'Không có thửa đất tại điểm này; đã tìm thấy quy hoạch.',
        )
      } else if (res.code === 'NotFound' || res.code === 'LocationIncorrect') {
        // No parcel and no plan here: the place anyway, from the national boundaries (not counted).
        const place = await placeAt(point, abort.signal)
        if (abort.signal.aborted) return
        setSelection({ point, status: 'no-data', place })
        announce(place ? `${place.ward}: chưa có dữ liệu quy hoạch ở khu vực này.` : 'Vị trí ngoài Việt Nam.')
      } else {
        // The API client has already said why (toast), except for an unreachable server: the stored
        // answer or the saved tiles answer then, and the map says it is offline.
        setSelection(null)
        if (res.code === 'Offline' || res.code === 'Network') void answerOffline(point, true)
      }
    },
    [ctrl, answerOffline, announce],
  )

  useEffect(() => () => lookupAbort.current?.abort(), [])

  // A shared link reopens its parcel: from today's history when it is there, else looked up at once
  // when logged in, otherwise on request (it counts).
  const restored = useRef(false)
  useEffect(() => {
    if (!ctrl || restored.current) return
    restored.current = true
    if (!restore) return
    // Reloading, going Back, or opening the link of a parcel already looked up today shows that answer
    // (with its time and "Làm mới") instead of spending another lookup.
    void answerFromToday(restore).then((shown) => {
      if (shown) return
      if (loggedIn) void lookupAt(restore)
      else setSelection({ point: restore, status: 'idle' })
    })
  }, [ctrl, restore, loggedIn, lookupAt, answerFromToday])

  // Once logged in, a lookup that was waiting for it says "looking up" rather than "log in".
  useEffect(() => {
    if (loggedIn && selection?.status === 'loading' && selection.waitingForLogin)
      setSelection({ ...selection, waitingForLogin: false })
  }, [loggedIn, selection])

  const close = useCallback(() => {
    lookupAbort.current?.abort()
    setSelection(null)
    ctrl?.setSelectedGeometry(null)
  }, [ctrl])

  return { selection, lookupAt, close, unreachable }
}
