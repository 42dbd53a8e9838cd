import type { Parcel } from '#core/contract/lookups.ts'

type Ring = [number, number][]

function polygons(geometry: Parcel['geometry']): Ring[][] {
  const c = geometry.coordinates as unknown
  if (geometry.type === 'Polygon') return [c as Ring[]]
  if (geometry.type === 'MultiPolygon') return c as Ring[][]
  return []
}

function insideRing(x: number, y: number, ring: Ring): boolean {
  let inside = false
  for (let i = 0, j = ring.length - 1; i < ring.length; j = i++) {
    const [xi, yi] = ring[i]!
    const [xj, yj] = ring[j]!
    if (yi > y !== yj > y && x < ((xj - xi) * (y - yi)) / (yj - yi) + xi) inside = !inside
  }
  return inside
}

/** Whether the point (lng, lat) lies in the parcel, holes excluded. */
export function parcelContains(parcel: Pick<Parcel, 'geometry'>, lat: number, lng: number): boolean {
  return polygons(parcel.geometry).some(
    ([outer, ...holes]) => !!outer && insideRing(lng, lat, outer) && !holes.some((h) => insideRing(lng, lat, h)),
  )
}

/**
 * A point surely inside the parcel (a centroid can fall outside an L-shaped one): on the horizontal
 * line through the middle of the largest polygon, the middle of the widest stretch inside it.
 */
export function pointInParcel(parcel: Pick<Parcel, 'geometry'>): { lat: number; lng: number } | null {
  let best: { lat: number; lng: number; width: number } | null = null
  for (const rings of polygons(parcel.geometry)) {
    const outer = rings[0]
    if (!outer || outer.length < 4) continue
    const ys = outer.map((p) => p[1])
    const y = (Math.min(...ys) + Math.max(...ys)) / 2
    const xs: number[] = []
    for (const ring of rings) {
      for (let i = 0, j = ring.length - 1; i < ring.length; j = i++) {
        const [xi, yi] = ring[i]!
        const [xj, yj] = ring[j]!
        if (yi > y !== yj > y) xs.push(xi + ((y - yi) * (xj - xi)) / (yj - yi))
      }
    }
    xs.sort((a, b) => a - b)
    for (let k = 0; k + 1 < xs.length; k += 2) {
      const width = xs[k + 1]! - xs[k]!
      if (!best || width > best.width) best = { lat: y, lng: (xs[k]! + xs[k + 1]!) / 2, width }
    }
  }
  return best ? { lat: best.lat, lng: best.lng } : null
}
