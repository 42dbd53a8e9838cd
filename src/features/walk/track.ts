import { toVn2000 } from '#core/geo/vn2000.ts'
import type { FixQuality } from '../position/index.ts'
import { largestOffset, planeArea, planePerimeter, type LngLat, type Outline } from '../sketch/index.ts'

/**
 * One recorded boundary point: where, how sure the source was (m), when, whether the user tapped it as a
 * corner, and the solution type it was taken with (walks recorded before receivers have none).
 */
export type WalkPoint = {
  lat: number
  lng: number
  accuracyM: number
  at: number
  corner: boolean
  quality?: FixQuality
}

export type WalkMode = 'corners' | 'auto'

/** A boundary walk as it is kept on the device between screen-offs and reopenings. */
export type Walk = {
  id: string
  startedAt: number
  mode: WalkMode
  /** Auto mode records a point each time the user has moved this far from the last one. */
  stepM: number
  meridian: number
  /** The registered parcel to compare with, when the walk began from one. */
  parcelId: string | null
  points: WalkPoint[]
  finishedAt: number | null
}

/** Fixes worse than this are never recorded, whatever the gate: a corner 30 m off is no corner. */
export const WORST_ACCURACY_M = 25
export const DEFAULT_STEP_M = 3

export function newWalk(opts: {
  id: string
  now: number
  mode: WalkMode
  meridian: number
  parcelId: string | null
  stepM?: number
}): Walk {
  return {
    id: opts.id,
    startedAt: opts.now,
    mode: opts.mode,
    stepM: opts.stepM ?? DEFAULT_STEP_M,
    meridian: opts.meridian,
    parcelId: opts.parcelId,
    points: [],
    finishedAt: null,
  }
}

const plane = (w: Pick<Walk, 'meridian'>, p: { lat: number; lng: number }) => toVn2000(p.lat, p.lng, w.meridian)

/** Plane distance between two positions in the walk's zone, metres. */
export function distanceM(
  w: Pick<Walk, 'meridian'>,
  a: { lat: number; lng: number },
  b: { lat: number; lng: number },
): number {
  const pa = plane(w, a)
  const pb = plane(w, b)
  return Math.hypot(pa.x - pb.x, pa.y - pb.y)
}

export type Fix = { lat: number; lng: number; accuracyM: number; at: number; quality?: FixQuality }

/** Why a fix was not recorded, for the screen to say. */
export type Skip = 'inaccurate' | 'too-close' | 'finished'

/**
 * A position from the device, in auto mode: recorded once the user has moved `stepM` from the last
 * point (and not when the fix is too poor); a corner tap records it whatever the distance.
 */
export function offerFix(
  w: Walk,
  fix: Fix,
  asCorner: boolean,
  gateM = WORST_ACCURACY_M,
): { walk: Walk; skipped: Skip | null } {
  if (w.finishedAt !== null) return { walk: w, skipped: 'finished' }
  if (fix.accuracyM > Math.min(gateM, WORST_ACCURACY_M)) return { walk: w, skipped: 'inaccurate' }
  const last = w.points[w.points.length - 1]
  if (!asCorner && (w.mode !== 'auto' || (last && distanceM(w, last, fix) < w.stepM)))
    return { walk: w, skipped: 'too-close' }
  return { walk: { ...w, points: [...w.points, { ...fix, corner: asCorner }] }, skipped: null }
}

/** Takes the last point back (a mistaken tap). */
export function undoPoint(w: Walk): Walk {
  return { ...w, points: w.points.slice(0, -1) }
}

export function finish(w: Walk, now: number): Walk {
  return { ...w, finishedAt: now }
}

/**
 * The area's standard uncertainty (m²) from each vertex's accuracy: the shoelace area's partial
 * derivatives at vertex i are half the neighbours' offset (y[i+1] − y[i−1], x[i−1] − x[i+1]), so with
 * independent errors of σᵢ per axis, σ_A² = ¼ Σ σᵢ² dᵢ², dᵢ the distance between vertex i's neighbours.
 * An accuracy radius r (√(σx² + σy²)) is σ = r / √2 per axis.
 */
export function areaUncertainty(pts: readonly { x: number; y: number; accuracyM: number }[]): number {
  const n = pts.length
  if (n < 3) return 0
  let sum = 0
  pts.forEach((p, i) => {
    const prev = pts[(i + n - 1) % n]!
    const next = pts[(i + 1) % n]!
    sum += (p.accuracyM ** 2 / 2) * ((next.x - prev.x) ** 2 + (next.y - prev.y) ** 2)
  })
  return Math.sqrt(sum) / 2
}

/** The walked polygon, area and its uncertainty, perimeter and worst accuracy, in the VN-2000 plane of the walk's zone. */
export function walkFigures(w: Walk): {
  areaM2: number
  areaSigmaM2: number
  perimeterM: number
  worstAccuracyM: number | null
  ring: LngLat[]
} {
  const pts = w.points.map((p) => plane(w, p))
  return {
    areaM2: planeArea(pts),
    areaSigmaM2: areaUncertainty(pts.map((p, i) => ({ x: p.x, y: p.y, accuracyM: w.points[i]!.accuracyM }))),
    perimeterM:
      pts.length >= 3
        ? planePerimeter(pts)
        : pts.length === 2
          ? 2 * Math.hypot(pts[0]!.x - pts[1]!.x, pts[0]!.y - pts[1]!.y)
          : 0,
    worstAccuracyM: w.points.length ? Math.max(...w.points.map((p) => p.accuracyM)) : null,
    ring: w.points.map((p) => [p.lng, p.lat] as LngLat),
  }
}

/** How the walked boundary differs from the registered parcel. */
export type Comparison = {
  walkedM2: number
  registeredM2: number
  differenceM2: number
  differencePct: number
  largestOffsetM: number
}

export function compareWithParcel(w: Walk, parcel: Outline): Comparison | null {
  if (w.points.length < 3) return null
  const walked = w.points.map((p) => plane(w, p))
  const registered = parcel.corners.map((c) => plane(w, c))
  const walkedM2 = planeArea(walked)
  const registeredM2 = planeArea(registered)
  return {
    walkedM2,
    registeredM2,
    differenceM2: walkedM2 - registeredM2,
    differencePct: registeredM2 > 0 ? ((walkedM2 - registeredM2) / registeredM2) * 100 : 0,
    largestOffsetM: largestOffset(walked, registered),
  }
}
