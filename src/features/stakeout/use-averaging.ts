import { useCallback, useEffect, useRef, useState } from 'react'
import {
  averageDone,
  averageOf,
  checkCapture,
  positionSource,
  type AveragedPoint,
  type AverageTarget,
  type Fix,
} from '../position/index.ts'

type Run = { target: AverageTarget; startedAt: number; samples: Fix[]; refused: string | null }

/**
 * "Đo điểm trung bình": every fix the gate lets through while it runs is a sample (read from the source
 * itself, so none is missed between two renders); fixes the gate refuses are skipped and the reason
 * shown. Ends with the mean and its spread once the target number of fixes or seconds is reached.
 */
export function useAveraging(meridian: number) {
  const [run, setRun] = useState<Run | null>(null)
  const [result, setResult] = useState<AveragedPoint | null>(null)
  const running = useRef<Run | null>(null)

  useEffect(() => {
    if (!run) return
    const source = positionSource()
    const take = () => {
      const r = running.current
      if (!r) return
      const p = source.getSnapshot()
      const check = checkCapture(p)
      let next = r
      if (!check.ok) next = r.refused === check.reason ? r : { ...r, refused: check.reason }
      else if (r.samples[r.samples.length - 1]?.at !== check.fix.at)
        next = { ...r, samples: [...r.samples, check.fix], refused: null }
      if (averageDone(next.target, next.samples, next.startedAt, p.now)) {
        running.current = null
        setResult(averageOf(next.samples, meridian))
        setRun(null)
        return
      }
      if (next !== r) {
        running.current = next
        setRun(next)
      }
    }
    const stop = source.subscribe(take)
    take()
    return stop
    // A run is one subscription: it starts with `run` becoming non-null and ends when it is cleared.
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [run === null, meridian])

  const start = useCallback((target: AverageTarget) => {
    const r: Run = { target, startedAt: Date.now(), samples: [], refused: null }
    running.current = r
    setResult(null)
    setRun(r)
  }, [])
  const cancel = useCallback(() => {
    running.current = null
    setRun(null)
  }, [])
  const clear = useCallback(() => setResult(null), [])
  return { run, result, start, cancel, clear }
}
