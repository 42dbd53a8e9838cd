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
    const bearing = (Math.atan2(c.y - mid.y, c.x - mid.x) * 180) / Math.PI
    seen.set(p.id, {
      id: p.id,
      sheetNo: p.sheetNo,
      parcelNo: p.parcelNo,
      side: sideOf(c.x - mid.x, c.y - mid.y), // Sorted from the north sector on: a parcel a hair west of due north still comes first.
      bearing: (bearing + 360 + 22.5) % 360,
    })
  }
  return [...seen.values()].sort((a, b) => a.bearing - b.bearing).map(({ bearing: _b, ...n }) => n)
}

/** The named street nearest the outline within STREET_REACH_M, with its distance; null when none is. */
export function nearestStreet(
  subject: Outline,
  streets: readonly TileStreet[],
): { name: string; distanceM: number } | null {
  let best: { name: string; distanceM: number } | null = null
  for (const s of streets) {
    if (!s.name) continue
    const line = s.line.map(([lng, lat]) => toVn2000(lat, lng, subject.meridian))
    for (let i = 0; i + 1 < line.length; i++) {
      const d = Math.min(...subject.corners.map((c) => distanceToSegment(c, line[i]!, line[i + 1]!)))
      if (d <= STREET_REACH_M && (!best || d < best.distanceM)) best = { name: s.name, distanceM: d }
    }
  }
  return best
}

/** A tile feature's polygon outer ring, as the outline functions take it. */
export const ringOfFeature = (geometry: { type: string; coordinates: unknown }) => outerRing(geometry)
