/**
 * Ground control points for a scan without georeferencing: each ties a pixel (column, line) of the
 * image to a map position. An affine transform is fitted by least squares (what gdalwarp's first-order
 * polynomial does with the same points) and each point's residual says how far the fit puts it from
 * where it was typed.
 */
export type ControlPoint = { pixel: number; line: number; x: number; y: number }

/**
 * Largest accepted residual, in metres on the ground. 5 m is 2.5 mm on a 1/2000 sheet: a point typed
 * or picked that far off, or a sheet that is not flat (a folded or skewed scan), would put plan lines
 * on the wrong side of a parcel, so such an import is refused rather than shown misplaced.
 */
export const MAX_GCP_RESIDUAL_M = 5

/** An affine transform as GDAL writes it: x = a0 + a1·pixel + a2·line, y = b0 + b1·pixel + b2·line. */
export type GeoTransform = [number, number, number, number, number, number]

export function applyGeoTransform(gt: GeoTransform, pixel: number, line: number): [number, number] {
  return [gt[0] + gt[1] * pixel + gt[2] * line, gt[3] + gt[4] * pixel + gt[5] * line]
}

/** Solves the 3×3 system m·v = r by Cramer's rule; null when the points are (nearly) collinear. */
function solve3(m: number[][], r: number[]): [number, number, number] | null {
  const det = (a: number[][]) =>
    a[0]![0]! * (a[1]![1]! * a[2]![2]! - a[1]![2]! * a[2]![1]!) -
    a[0]![1]! * (a[1]![0]! * a[2]![2]! - a[1]![2]! * a[2]![0]!) +
    a[0]![2]! * (a[1]![0]! * a[2]![1]! - a[1]![1]! * a[2]![0]!)
  const d = det(m)
  const scale = Math.max(...m.flat().map(Math.abs), 1)
  if (!Number.isFinite(d) || Math.abs(d) < 1e-12 * scale ** 3) return null
  const col = (i: number) => det(m.map((row, k) => row.map((v, j) => (j === i ? r[k]! : v))))
  return [col(0) / d, col(1) / d, col(2) / d]
}

export type GcpFit = { transform: GeoTransform; residuals: number[] }

/**
 * Fits the affine transform. Pixel coordinates are centred first so the normal equations stay well
 * conditioned for 20,000-pixel sheets. Null when fewer than 3 points or they lie on one line.
 */
export function fitAffine(points: ControlPoint[]): GcpFit | null {
  if (points.length < 3) return null
  const n = points.length
  const cp = points.reduce((s, p) => s + p.pixel, 0) / n
  const cl = points.reduce((s, p) => s + p.line, 0) / n
  const rows = points.map((p) => [1, p.pixel - cp, p.line - cl])
  const ata = [0, 1, 2].map((i) => [0, 1, 2].map((j) => rows.reduce((s, r) => s + r[i]! * r[j]!, 0)))
  const atb = (vals: number[]) => [0, 1, 2].map((i) => rows.reduce((s, r, k) => s + r[i]! * vals[k]!, 0))
  const a = solve3(ata, atb(points.map((p) => p.x)))
  const b = solve3(ata, atb(points.map((p) => p.y)))
  if (!a || !b) return null
  // Back from centred pixel coordinates to GDAL's (origin at the image's top-left corner).
  const transform: GeoTransform = [a[0] - a[1] * cp - a[2] * cl, a[1], a[2], b[0] - b[1] * cp - b[2] * cl, b[1], b[2]]
  const residuals = points.map((p) => {
    const [x, y] = applyGeoTransform(transform, p.pixel, p.line)
    return Math.hypot(x - p.x, y - p.y)
  })
  return { transform, residuals }
}
