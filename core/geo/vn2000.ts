/** VN-2000 → WGS84 datum shift (DOMAIN.md, EPSG:6960); published strings often have the rotation signs reversed. */
export const TOWGS84 = '-191.90441429,-39.30318279,-111.45032835,0.00928836,-0.01975479,0.00427372,0.252906278'

export function vn2000Proj(meridian: number): string {
  return `+proj=tmerc +lat_0=0 +lon_0=${meridian} +k=0.9999 +x_0=500000 +y_0=0 +ellps=WGS84 +towgs84=${TOWGS84} +units=m +no_defs`
}

/*
 * The transformation itself, written out rather than taken from proj4: proj4 sat on the map's
 * first-paint path only for this (its weight: docs/performance.md, "Front end"). Same model as the
 * string above and as PROJ: WGS84 ellipsoid on both sides, the 7-parameter Helmert shift
 * (position-vector rotations, as towgs84 means them) through geocentric coordinates, then transverse
 * Mercator by Krüger's series to n⁶ (Karney 2011), which agrees with PROJ's to well under a millimetre
 * across a 3° zone; server/src/import/crs.test.ts checks it against cs2cs.
 */
const A = 6378137
const F = 1 / 298.257223563
const E2 = F * (2 - F)
const E = Math.sqrt(E2)
const K0 = 0.9999
const FALSE_EASTING = 500_000
const ARC_SECOND = Math.PI / (180 * 3600)
const [DX, DY, DZ, RX_S, RY_S, RZ_S, S_PPM] = TOWGS84.split(',').map(Number) as [
  number,
  number,
  number,
  number,
  number,
  number,
  number,
]
const RX = RX_S * ARC_SECOND
const RY = RY_S * ARC_SECOND
const RZ = RZ_S * ARC_SECOND
const SCALE = 1 + S_PPM * 1e-6

type Xyz = [number, number, number]
const RAD = Math.PI / 180

function toGeocentric(latDeg: number, lngDeg: number): Xyz {
  const lat = latDeg * RAD
  const lng = lngDeg * RAD
  const n = A / Math.sqrt(1 - E2 * Math.sin(lat) ** 2)
  return [n * Math.cos(lat) * Math.cos(lng), n * Math.cos(lat) * Math.sin(lng), n * (1 - E2) * Math.sin(lat)]
}

function fromGeocentric([x, y, z]: Xyz): { lat: number; lng: number } {
  const p = Math.hypot(x, y)
  let lat = Math.atan2(z, p * (1 - E2))
  for (let i = 0; i < 10; i++) {
    const n = A / Math.sqrt(1 - E2 * Math.sin(lat) ** 2)
    const h = p / Math.cos(lat) - n
    lat = Math.atan2(z, p * (1 - (E2 * n) / (n + h)))
  }
  return { lat: lat / RAD, lng: Math.atan2(y, x) / RAD }
}

/** VN-2000 → WGS84 geocentric. */
function helmert([x, y, z]: Xyz): Xyz {
  return [SCALE * (x - RZ * y + RY * z) + DX, SCALE * (RZ * x + y - RX * z) + DY, SCALE * (-RY * x + RX * y + z) + DZ]
}

/** WGS84 → VN-2000 geocentric (the transposed rotation, as PROJ and proj4 invert these small angles). */
function helmertInverse([x, y, z]: Xyz): Xyz {
  const [a, b, c] = [(x - DX) / SCALE, (y - DY) / SCALE, (z - DZ) / SCALE]
  return [a + RZ * b - RY * c, -RZ * a + b + RX * c, RY * a - RX * b + c]
}

const N3 = F / (2 - F)
const RECTIFYING = (A / (1 + N3)) * (1 + N3 ** 2 / 4 + N3 ** 4 / 64 + N3 ** 6 / 256)
const ALPHA = [
  N3 / 2 -
    (2 * N3 ** 2) / 3 +
    (5 * N3 ** 3) / 16 +
    (41 * N3 ** 4) / 180 -
    (127 * N3 ** 5) / 288 +
    (7891 * N3 ** 6) / 37800,
  (13 * N3 ** 2) / 48 -
    (3 * N3 ** 3) / 5 +
    (557 * N3 ** 4) / 1440 +
    (281 * N3 ** 5) / 630 -
    (1983433 * N3 ** 6) / 1935360,
  (61 * N3 ** 3) / 240 - (103 * N3 ** 4) / 140 + (15061 * N3 ** 5) / 26880 + (167603 * N3 ** 6) / 181440,
  (49561 * N3 ** 4) / 161280 - (179 * N3 ** 5) / 168 + (6601661 * N3 ** 6) / 7257600,
  (34729 * N3 ** 5) / 80640 - (3418889 * N3 ** 6) / 1995840,
  (212378941 * N3 ** 6) / 319334400,
]
const BETA = [
  N3 / 2 - (2 * N3 ** 2) / 3 + (37 * N3 ** 3) / 96 - N3 ** 4 / 360 - (81 * N3 ** 5) / 512 + (96199 * N3 ** 6) / 604800,
  N3 ** 2 / 48 + N3 ** 3 / 15 - (437 * N3 ** 4) / 1440 + (46 * N3 ** 5) / 105 - (1118711 * N3 ** 6) / 3870720,
  (17 * N3 ** 3) / 480 - (37 * N3 ** 4) / 840 - (209 * N3 ** 5) / 4480 + (5569 * N3 ** 6) / 90720,
  (4397 * N3 ** 4) / 161280 - (11 * N3 ** 5) / 504 - (830251 * N3 ** 6) / 7257600,
  (4583 * N3 ** 5) / 161280 - (108847 * N3 ** 6) / 3991680,
  (20648693 * N3 ** 6) / 638668800,
]

/** Geodetic degrees → [easting, northing] in the zone of `meridian`. */
function tmForward(latDeg: number, lngDeg: number, meridian: number): [number, number] {
  const phi = latDeg * RAD
  const dLng = (lngDeg - meridian) * RAD
  const t = Math.sinh(Math.atanh(Math.sin(phi)) - E * Math.atanh(E * Math.sin(phi)))
  const xi0 = Math.atan2(t, Math.cos(dLng))
  const eta0 = Math.atanh(Math.sin(dLng) / Math.sqrt(1 + t * t))
  let xi = xi0
  let eta = eta0
  ALPHA.forEach((a, i) => {
    const j = 2 * (i + 1)
    xi += a * Math.sin(j * xi0) * Math.cosh(j * eta0)
    eta += a * Math.cos(j * xi0) * Math.sinh(j * eta0)
  })
  return [FALSE_EASTING + K0 * RECTIFYING * eta, K0 * RECTIFYING * xi]
}

/** [easting, northing] in the zone of `meridian` → geodetic degrees. */
function tmInverse(easting: number, northing: number, meridian: number): { lat: number; lng: number } {
  const xi = northing / (K0 * RECTIFYING)
  const eta = (easting - FALSE_EASTING) / (K0 * RECTIFYING)
  let xi0 = xi
  let eta0 = eta
  BETA.forEach((b, i) => {
    const j = 2 * (i + 1)
    xi0 -= b * Math.sin(j * xi) * Math.cosh(j * eta)
    eta0 -= b * Math.cos(j * xi) * Math.sinh(j * eta)
  })
  const tauPrime = Math.sin(xi0) / Math.sqrt(Math.sinh(eta0) ** 2 + Math.cos(xi0) ** 2)
  // Conformal → geodetic latitude (Newton's method on tan φ).
  let tau = tauPrime
  for (let i = 0; i < 10; i++) {
    const sigma = Math.sinh(E * Math.atanh((E * tau) / Math.sqrt(1 + tau * tau)))
    const tauI = tau * Math.sqrt(1 + sigma * sigma) - sigma * Math.sqrt(1 + tau * tau)
    const step =
      ((tauPrime - tauI) / Math.sqrt(1 + tauI * tauI)) *
      ((1 + (1 - E2) * tau * tau) / ((1 - E2) * Math.sqrt(1 + tau * tau)))
    tau += step
    if (Math.abs(step) < 1e-14) break
  }
  return { lat: Math.atan(tau) / RAD, lng: meridian + Math.atan2(Math.sinh(eta0), Math.cos(xi0)) / RAD }
}

/** VN-2000 in the Vietnamese order: X = northing, Y = easting (metres). */
export type Vn2000 = { x: number; y: number; zone_meridian: number }

export function toVn2000(lat: number, lng: number, meridian: number): Vn2000 {
  const local = fromGeocentric(helmertInverse(toGeocentric(lat, lng)))
  const [easting, northing] = tmForward(local.lat, local.lng, meridian)
  return { x: northing, y: easting, zone_meridian: meridian }
}

export function fromVn2000(x: number, y: number, meridian: number): { lat: number; lng: number } {
  const local = tmInverse(y, x, meridian)
  return fromGeocentric(helmert(toGeocentric(local.lat, local.lng)))
}
