import { toVn2000 } from '#core/geo/vn2000.ts'
import { distanceToRing, distanceToSegment, outerRing, type LngLat, type Outline } from './geometry.ts'

/** A parcel read from the map's parcel tiles: its id, numbers and (possibly clipped) outline. */
export type TileParcel = { id: string; sheetNo: number | null; parcelNo: number | null; ring: LngLat[] }
/** A street line read from the basemap tiles. */
export type TileStreet = { name: string; line: LngLat[] }

export type Neighbour = { id: string; sheetNo: number | null; parcelNo: number | null; side: string }

/** Parcels whose outline comes this close to the subject's share a boundary with it (tiles are simplified by a few cm). */
export const NEIGHBOUR_GAP_M = 0.6
/** A street further than this from every corner is not the parcel's street. */
export const STREET_REACH_M = 40

const SIDES = ['Bắc', 'Đông Bắc', 'Đông', 'Đông Nam', 'Nam', 'Tây Nam', 'Tây', 'Tây Bắc'] as const

/** The compass side (8 points) of a direction given as northing and easting offsets. */
export function sideOf(dx: number, dy: number): string {
  const bearing = (Math.atan2(dy, dx) * 180) / Math.PI
  return SIDES[Math.round(((bearing + 360) % 360) / 45) % 8]!
}

const centroid = (pts: readonly { x: number; y: number }[]) => ({
  x: pts.reduce((s, p) => s + p.x, 0) / pts.length,
  y: pts.reduce((s, p) => s + p.y, 0) / pts.length,
})

/** Points tried along each side of the subject to measure how much of it a neighbour shares. */
const SIDE_SAMPLES = 8

/**
 * The direction of the part of the subject's boundary a neighbour shares: each side's outward normal,
 * weighted by the length of it within NEIGHBOUR_GAP_M of the neighbour. A long strip's neighbours along
 * it are east or west of it however far north their middle lies. Null when they touch only at a corner.
 */
function sharedSide(
  own: readonly { x: number; y: number }[],
  mid: { x: number; y: number },
  other: readonly { x: number; y: number }[],
): { dx: number; dy: number } | null {
  let dx = 0
  let dy = 0
  own.forEach((a, i) => {
    const b = own[(i + 1) % own.length]!
    const len = Math.hypot(b.x - a.x, b.y - a.y)
    if (len === 0) return
    let near = 0
    for (let k = 0; k < SIDE_SAMPLES; k++) {
      const t = (k + 0.5) / SIDE_SAMPLES
      if (distanceToRing({ x: a.x + (b.x - a.x) * t, y: a.y + (b.y - a.y) * t }, other) <= NEIGHBOUR_GAP_M) near++
    }
    if (near === 0) return
    // The side's normal, turned to point away from the middle of the parcel.
    let nx = -(b.y - a.y) / len
    let ny = (b.x - a.x) / len
    if (((a.x + b.x) / 2 - mid.x) * nx + ((a.y + b.y) / 2 - mid.y) * ny < 0) [nx, ny] = [-nx, -ny]
    const shared = (len * near) / SIDE_SAMPLES
    dx += nx * shared
    dy += ny * shared
  })
  return dx === 0 && dy === 0 ? null : { dx, dy }
}

/**
 * The parcels that share a boundary with the outline (within NEIGHBOUR_GAP_M), each once, with the
 * side of the subject it lies on, clockwise from the north.
 */
export function neighboursOf(subject: Outline, subjectId: string | null, parcels: readonly TileParcel[]): Neighbour[] {
  const own = subject.corners
  const mid = centroid(own)
  const seen = new Map<string, Neighbour & { bearing: number }>()
  for (const p of parcels) {
    if (p.id === subjectId || seen.has(p.id) || p.ring.length < 3) continue
    const pts = p.ring.map(([lng, lat]) => toVn2000(lat, lng, subject.meridian))
    const close =
      pts.some((q) => distanceToRing(q, own) <= NEIGHBOUR_GAP_M) ||
      own.some((c) => distanceToRing(c, pts) <= NEIGHBOUR_GAP_M)
    if (!close) continue
    const c = centroid(pts)
    const d = sharedSide(own, mid, pts) ?? { dx: c.x - mid.x, dy: c.y - mid.y }
    const bearing = (Math.atan2(d.dy, d.dx) * 180) / Math.PI
    seen.set(p.id, {
      id: p.id,
      sheetNo: p.sheetNo,
      parcelNo: p.parcelNo,
      side: sideOf(d.dx, d.dy), // Sorted from the north sector on: a parcel a hair west of due north still comes first.
      bearing: (bearing + 360 + 22.5) % 360,
    })
  }
  return [...seen.values()].sort((a, b) => a.bearing - b.bearing).map(({ bearing: _b, ...n }) => n)
}

/** The named street nearest the outline within STREET_REACH_M, with its distance; null when none is. */
export function nearestStreet(subject: Outline, streets: readonly TileStreet[]): NearStreet | null {
  let best: NearStreet | null = null
  for (const s of streets) {
    if (!s.name) continue
    const line = s.line.map(([lng, lat]) => toVn2000(lat, lng, subject.meridian))
    for (let i = 0; i + 1 < line.length; i++) {
      const [a, b] = [line[i]!, line[i + 1]!]
      const d = Math.min(...subject.corners.map((c) => distanceToSegment(c, a, b)))
      if (d <= STREET_REACH_M && (!best || d < best.distanceM))
        best = {
          name: s.name,
          distanceM: d,
          segment: [
            { x: a.x, y: a.y },
            { x: b.x, y: b.y },
          ],
        }
    }
  }
  return best
}

/** The street nearest a parcel: its name, distance, and the piece of its centre line nearest (VN-2000). */
export type NearStreet = {
  name: string
  distanceM: number
  segment: [{ x: number; y: number }, { x: number; y: number }]
}

/** The direction of a compass side as northing and easting offsets of unit length ("Đông Bắc" → (0.71, 0.71)). */
export function sideDirection(side: string): { dx: number; dy: number } {
  const k = SIDES.indexOf(side as (typeof SIDES)[number])
  const a = ((k < 0 ? 0 : k) * Math.PI) / 4
  return { dx: Math.cos(a), dy: Math.sin(a) }
}

/** A tile feature's polygon outer ring, as the outline functions take it. */
export const ringOfFeature = (geometry: { type: string; coordinates: unknown }) => outerRing(geometry)
