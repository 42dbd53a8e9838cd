/** A box in WGS84 degrees as the API writes it: west, south, east, north. */
export type Box = readonly [number, number, number, number]

/**
 * A box around Việt Nam's land and sea territory, the Hoàng Sa and Trường Sa archipelagos included. A
 * place outside it is a mistake (a scan with a wrong world file or CRS, a box across the antimeridian).
 */
export const VIETNAM_BOX = { west: 102.1, south: 6.0, east: 117.9, north: 23.5 } as const

/** Whether the whole box lies in VIETNAM_BOX, west of its east and south of its north. */
export function insideVietnam([w, s, e, n]: Box): boolean {
  const v = VIETNAM_BOX
  return w < e && s < n && w >= v.west && e <= v.east && s >= v.south && n <= v.north
}

/**
 * The area in m² of the box as drawn on a lon/lat map, bounded by two meridians and two parallels (the
 * box PostGIS queries with ST_MakeEnvelope), on the WGS84 spheroid: the zone between two parallels
 * (b²·Δλ/2 · [q(φ)] with q the authalic function), so it is exact for the box, however long or thin.
 */
export function boxAreaM2([w, s, e, n]: Box): number {
  const a = 6_378_137
  const f = 1 / 298.257223563
  const e2 = f * (2 - f)
  const ecc = Math.sqrt(e2)
  const rad = Math.PI / 180
  const q = (lat: number) => {
    const x = Math.sin(lat * rad)
    return x / (1 - e2 * x * x) + Math.log((1 + ecc * x) / (1 - ecc * x)) / (2 * ecc)
  }
  return ((a * a * (1 - e2)) / 2) * Math.abs(e - w) * rad * Math.abs(q(n) - q(s))
}
