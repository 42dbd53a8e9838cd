import { useCallback, useEffect, useRef, useState } from 'react'
import { useStore } from 'jotai'
import { autoMeridian } from '#core/geo/provinces.ts'
import { deviceStorageTexts } from '#core/messages.ts'
import { pushToast } from '../notifications/index.ts'
import { clearWalk, loadWalk, saveWalk } from './store.ts'
import { finish, newWalk, offerFix, undoPoint, type Fix, type Skip, type Walk, type WalkMode } from './track.ts'

/**
 * The walk in progress: restored from the device on opening, written back after every change, fed by
 * the position watch (auto mode) and the user's taps. `lastSkip` says why the last tap did not record.
 */
export function useWalk() {
  const [walk, setWalk] = useState<Walk | null | undefined>(undefined)
  const [lastSkip, setLastSkip] = useState<Skip | null>(null)
  const current = useRef<Walk | null>(null)
  const store = useStore()
  // Told once when saving starts failing, again only after a save has worked since: not on every point.
  const failing = useRef(false)

  const commit = useCallback(
    (next: Walk | null) => {
      current.current = next
      setWalk(next)
      void (next ? saveWalk(next) : clearWalk()).then(
        () => (failing.current = false),
        () => {
          if (!failing.current) pushToast(store, 'error', deviceStorageTexts.WALK_NOT_SAVED)
          failing.current = true
        },
      )
    },
    [store],
  )

  useEffect(() => {
    let alive = true
    loadWalk().then(
      (w) => {
        if (!alive) return
        current.current = w ?? null
        setWalk(w ?? null)
      },
      () => alive && setWalk(null),
    )
    return () => {
      alive = false
    }
  }, [])

  const start = useCallback(
    (mode: WalkMode, fix: Fix, opts: { parcelId: string | null; meridian: number | null }) => {
      const w = newWalk({
        id: crypto.randomUUID(),
        now: Date.now(),
        mode,
        meridian: opts.meridian ?? autoMeridian(fix.lat, fix.lng).meridian,
        parcelId: opts.parcelId,
      })
      const first = offerFix(w, fix, true)
      setLastSkip(first.skipped)
      commit(first.walk)
    },
    [commit],
  )

  /** A position that passed the gate: recorded in auto mode when far enough from the last point. */
  const onFix = useCallback(
    (fix: Fix) => {
      const w = current.current
      if (!w || w.finishedAt !== null || w.mode !== 'auto') return
      const out = offerFix(w, fix, false)
      if (out.walk !== w) commit(out.walk)
    },
    [commit],
  )

  const markCorner = useCallback(
    (fix: Fix) => {
      const w = current.current
      if (!w) return
      const out = offerFix(w, fix, true)
      setLastSkip(out.skipped)
      if (out.walk !== w) commit(out.walk)
    },
    [commit],
  )

  const undo = useCallback(() => current.current && commit(undoPoint(current.current)), [commit])
  const done = useCallback(() => current.current && commit(finish(current.current, Date.now())), [commit])
  const resume = useCallback(() => current.current && commit({ ...current.current, finishedAt: null }), [commit])
  const discard = useCallback(() => commit(null), [commit])

  return { walk, lastSkip, start, onFix, markCorner, undo, done, resume, discard }
}
