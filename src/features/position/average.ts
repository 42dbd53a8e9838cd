import { autoMeridian } from '#core/geo/provinces.ts'
import { fromVn2000, toVn2000 } from '#core/geo/vn2000.ts'
import type { Fix } from './fix.ts'

/** "Đo điểm trung bình" runs until it has this many fixes, or for this many seconds. */
export type AverageTarget = { kind: 'fixes'; count: number } | { kind: 'seconds'; seconds: number }

/** An averaged point: the mean position, and the spread of its samples (1σ, metres) kept with it. */
export type AveragedPoint = {
  lat: number
  lng: number
  /** VN-2000 of the mean on `meridian`: X northing, Y easting. */
  x: number
  y: number
  meridian: number
  /** Standard deviations of the samples along X and Y, and the horizontal spread √(σx² + σy²). */
  sigmaX: number
  sigmaY: number
  sigmaM: number
  samples: number
  startedAt: number
  endedAt: number
}

/** Whether the samples so far reach the target. */
export function averageDone(target: AverageTarget, samples: readonly Fix[], startedAt: number, now: number): boolean {
  return target.kind === 'fixes'
    ? samples.length >= target.count
    : now - startedAt >= target.seconds * 1000 && samples.length > 0
}

/**
 * The mean of the samples, taken in the VN-2000 plane (metres, so X and Y weigh alike) and turned back
 * into latitude and longitude; σ with n − 1 (zero for one sample). Null without samples.
 */
export function averageOf(samples: readonly Fix[], meridian?: number): AveragedPoint | null {
  const first = samples[0]
  if (!first) return null
  const m = meridian ?? autoMeridian(first.lat, first.lng).meridian
  const pts = samples.map((s) => toVn2000(s.lat, s.lng, m))
  const n = pts.length
  const x = pts.reduce((a, p) => a + p.x, 0) / n
  const y = pts.reduce((a, p) => a + p.y, 0) / n
  const sd = (vals: number[], mean: number) =>
    n > 1 ? Math.sqrt(vals.reduce((a, v) => a + (v - mean) ** 2, 0) / (n - 1)) : 0
  const sigmaX = sd(
    pts.map((p) => p.x),
    x,
  )
  const sigmaY = sd(
    pts.map((p) => p.y),
    y,
  )
  const ll = fromVn2000(x, y, m)
  return {
    lat: ll.lat,
    lng: ll.lng,
    x,
    y,
    meridian: m,
    sigmaX,
    sigmaY,
    sigmaM: Math.hypot(sigmaX, sigmaY),
    samples: n,
    startedAt: first.at,
    endedAt: samples[n - 1]!.at,
  }
}
