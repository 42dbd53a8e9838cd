import { toVn2000 } from '#core/geo/vn2000.ts'
import { formatPrecise } from '../position/index.ts'

/** A point to stake out: a parcel's corner (numbered) or a typed coordinate, in VN-2000 on its meridian. */
export type Target = { x: number; y: number; meridian: number; corner: number | null; label: string }

/** How to get from here to the target, in the target's VN-2000 plane (X north, Y east). */
export type Guidance = {
  /** Metres to go north (negative: south) and east (negative: west). */
  north: number
  east: number
  distanceM: number
  /** Grid bearing from here to the target, degrees clockwise from north. */
  bearingDeg: number
  /** "đi về phía Bắc 1,24 m, phía Đông 37 cm" */
  words: string
  /** Within the tolerance the user set, by a fix at least that accurate. */
  reached: boolean
  /** Close enough by the numbers, but the fix is too coarse to say so. */
  unsure: boolean
}

/** Stakeout tolerances the user picks from (metres). */
export const TOLERANCES_M = [0.02, 0.05, 0.1, 0.2, 0.5] as const
export const DEFAULT_TOLERANCE_M = 0.05

/** The part of a step below a centimetre is not worth a word: "đi về phía Bắc 1 cm", not "… phía Đông dưới 1 cm". */
const NEGLIGIBLE_M = 0.005

/**
 * From a position to the target. It counts as reached only when the fix's accuracy is within the
 * tolerance too: a phone's ± 4 m cannot tell 5 cm from 3 m.
 */
export function guide(
  here: { lat: number; lng: number; accuracyM: number | null },
  target: Target,
  toleranceM: number,
): Guidance {
  const p = toVn2000(here.lat, here.lng, target.meridian)
  const north = target.x - p.x
  const east = target.y - p.y
  const distanceM = Math.hypot(north, east)
  const bearingDeg = ((((Math.atan2(east, north) * 180) / Math.PI) % 360) + 360) % 360
  const near = distanceM <= toleranceM
  const reached = near && here.accuracyM !== null && here.accuracyM <= toleranceM
  const legs = [
    Math.abs(north) >= NEGLIGIBLE_M ? `phía ${north > 0 ? 'Bắc' : 'Nam'} ${formatPrecise(north)}` : null,
    Math.abs(east) >= NEGLIGIBLE_M ? `phía ${east > 0 ? 'Đông' : 'Tây'} ${formatPrecise(east)}` : null,
  ].filter(Boolean)
  const words = reached ? 'Đã tới mốc' : legs.length ? `Đi về ${legs.join(', ')}` : 'Đang ở ngay trên mốc'
  return { north, east, distanceM, bearingDeg, words, reached, unsure: near && !reached }
}
