import { toVn2000 } from '#core/geo/vn2000.ts'

/** Longitude, latitude in degrees (GeoJSON order). */
export type LngLat = [number, number]

/** A numbered corner with its VN-2000 plane coordinates: X = northing, Y = easting (metres). */
export type Corner = { n: number; lat: number; lng: number; x: number; y: number }
/** The side from corner `from` to the next corner, as long as measured in the VN-2000 plane. */
export type Edge = { from: number; to: number; lengthM: number }

export type Outline = {
  corners: Corner[]
  edges: Edge[]
  /** Area of the outline in the VN-2000 plane, the way a certificate computes it from its coordinates. */
  areaM2: number
  perimeterM: number
  meridian: number
}

/** Corners closer than this are one corner (a repeated vertex, the ring's closing point). */
const SAME_CORNER_M = 0.005

/** Signed shoelace area of a ring in (x = northing, y = easting): positive when it runs clockwise on the map. */
function signedArea(points: readonly { x: number; y: number }[]): number {
  let sum = 0
  points.forEach((p, i) => {
    const q = points[(i + 1) % points.length]!
    sum += p.x * q.y - q.x * p.y
  })
  return sum / 2
}

const ringOf = (coords: unknown): LngLat[] | null =>
  Array.isArray(coords) && coords.every((c) => Array.isArray(c) && typeof c[0] === 'number' && typeof c[1] === 'number')
    ? (coords as LngLat[])
    : null

/** Rough planar size of a lon/lat ring, only to pick a multipolygon's largest part. */
function degreeArea(ring: LngLat[]): number {
  return Math.abs(
    ring.reduce((s, [x1, y1], i) => {
      const [x2, y2] = ring[(i + 1) % ring.length]!
      return s + x1 * y2 - x2 * y1
    }, 0),
  )
}

/** The outer ring of a Polygon, or of a MultiPolygon's largest part; null for anything else. */
export function outerRing(geometry: { type: string; coordinates: unknown }): LngLat[] | null {
  if (geometry.type === 'Polygon' && Array.isArray(geometry.coordinates)) return ringOf(geometry.coordinates[0])
  if (geometry.type === 'MultiPolygon' && Array.isArray(geometry.coordinates)) {
    const rings = geometry.coordinates
      .map((p: unknown) => (Array.isArray(p) ? ringOf(p[0]) : null))
      .filter((r): r is LngLat[] => r !== null && r.length >= 3)
    return rings.sort((a, b) => degreeArea(b) - degreeArea(a))[0] ?? null
  }
  return null
}

/**
 * The outline as a land-use certificate draws it: corners numbered from 1 at the north-west corner,
 * running clockwise, each with its VN-2000 X/Y on the given meridian, the sides' lengths and the area
 * in the VN-2000 plane. Null when fewer than three distinct corners remain.
 */
export function outlineOf(ring: readonly LngLat[], meridian: number): Outline | null {
  const points: Omit<Corner, 'n'>[] = []
  for (const [lng, lat] of ring) {
    const { x, y } = toVn2000(lat, lng, meridian)
    const last = points[points.length - 1]
    if (last && Math.hypot(last.x - x, last.y - y) < SAME_CORNER_M) continue
    points.push({ lat, lng, x, y })
  }
  while (
    points.length > 1 &&
    Math.hypot(points[0]!.x - points[points.length - 1]!.x, points[0]!.y - points[points.length - 1]!.y) < SAME_CORNER_M
  )
    points.pop()
  if (points.length < 3) return null
  if (signedArea(points) < 0) points.reverse()
  // North-west: the corner nearest the top-left of the outline's box.
  const maxX = Math.max(...points.map((p) => p.x))
  const minY = Math.min(...points.map((p) => p.y))
  const start = points.reduce(
    (best, p, i) =>
      Math.hypot(maxX - p.x, p.y - minY) < Math.hypot(maxX - points[best]!.x, points[best]!.y - minY) ? i : best,
    0,
  )
  const corners = [...points.slice(start), ...points.slice(0, start)].map((p, i) => ({ n: i + 1, ...p }))
  const edges = corners.map((c, i) => {
    const d = corners[(i + 1) % corners.length]!
    return { from: c.n, to: d.n, lengthM: Math.hypot(d.x - c.x, d.y - c.y) }
  })
  return {
    corners,
    edges,
    areaM2: Math.abs(signedArea(corners)),
    perimeterM: edges.reduce((s, e) => s + e.lengthM, 0),
    meridian,
  }
}

/** Plane area of points given as VN-2000 X/Y (any order of travel). */
export function planeArea(points: readonly { x: number; y: number }[]): number {
  return points.length < 3 ? 0 : Math.abs(signedArea(points))
}

/** Plane perimeter of a closed ring of VN-2000 X/Y points. */
export function planePerimeter(points: readonly { x: number; y: number }[]): number {
  if (points.length < 2) return 0
  return points.reduce((s, p, i) => {
    const q = points[(i + 1) % points.length]!
    return s + Math.hypot(q.x - p.x, q.y - p.y)
  }, 0)
}

/** Distance from a point to the segment a–b, all in the plane. */
export function distanceToSegment(
  p: { x: number; y: number },
  a: { x: number; y: number },
  b: { x: number; y: number },
): number {
  const dx = b.x - a.x
  const dy = b.y - a.y
  const len2 = dx * dx + dy * dy
  const t = len2 === 0 ? 0 : Math.max(0, Math.min(1, ((p.x - a.x) * dx + (p.y - a.y) * dy) / len2))
  return Math.hypot(p.x - (a.x + t * dx), p.y - (a.y + t * dy))
}

/** Distance from a point to a closed ring's boundary. */
export function distanceToRing(p: { x: number; y: number }, ring: readonly { x: number; y: number }[]): number {
  return ring.reduce((best, a, i) => Math.min(best, distanceToSegment(p, a, ring[(i + 1) % ring.length]!)), Infinity)
}

/**
 * The largest distance between two outlines' boundaries (Hausdorff distance over their corners and
 * the other's sides): how far, at worst, a walked boundary strays from the registered one.
 */
export function largestOffset(a: readonly { x: number; y: number }[], b: readonly { x: number; y: number }[]): number {
  if (a.length < 2 || b.length < 2) return 0
  const one = Math.max(...a.map((p) => distanceToRing(p, b)))
  const two = Math.max(...b.map((p) => distanceToRing(p, a)))
  return Math.max(one, two)
}
