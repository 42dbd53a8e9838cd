import type { Outline } from './geometry.ts'

/** Map scales a certificate's sketch is printed at. */
const SCALES = [50, 100, 200, 250, 500, 1000, 2000, 2500, 5000, 10_000]

/** The largest standard scale (smallest denominator) at which `extentM` fits in `paperMm` of paper. */
export function printScale(extentM: number, paperMm: number): number {
  return SCALES.find((d) => (extentM * 1000) / d <= paperMm) ?? Math.ceil((extentM * 1000) / paperMm / 1000) * 1000
}

export type Label = { x: number; y: number; text: string; angle: number }

/**
 * The sketch in drawing units of one metre, north up: drawing x = easting, drawing y = −northing (SVG's
 * y runs down). Corner numbers stand just outside their corner, side lengths just outside their side's
 * middle along it, always readable left to right; a margin leaves room for them and the neighbours.
 */
export type Layout = {
  viewBox: [number, number, number, number]
  points: { x: number; y: number }[]
  corners: Label[]
  sides: Label[]
  /** Text height and stroke width, in metres, scaled to the parcel. */
  fontM: number
  strokeM: number
  extentM: number
}

export function layoutOf(outline: Outline): Layout {
  const points = outline.corners.map((c) => ({ x: c.y, y: -c.x }))
  const xs = points.map((p) => p.x)
  const ys = points.map((p) => p.y)
  const [minX, maxX, minY, maxY] = [Math.min(...xs), Math.max(...xs), Math.min(...ys), Math.max(...ys)]
  const extentM = Math.max(maxX - minX, maxY - minY, 1)
  const fontM = extentM / 24
  const mid = { x: xs.reduce((a, b) => a + b, 0) / xs.length, y: ys.reduce((a, b) => a + b, 0) / ys.length }
  const outward = (p: { x: number; y: number }, by: number) => {
    const d = Math.hypot(p.x - mid.x, p.y - mid.y) || 1
    return { x: p.x + ((p.x - mid.x) / d) * by, y: p.y + ((p.y - mid.y) / d) * by }
  }
  const corners = points.map((p, i) => ({ ...outward(p, fontM * 0.9), text: String(outline.corners[i]!.n), angle: 0 }))
  const sides = points.map((a, i) => {
    const b = points[(i + 1) % points.length]!
    let angle = (Math.atan2(b.y - a.y, b.x - a.x) * 180) / Math.PI
    if (angle > 90) angle -= 180
    if (angle <= -90) angle += 180
    const m = { x: (a.x + b.x) / 2, y: (a.y + b.y) / 2 }
    // The side's normal pointing away from the middle of the parcel.
    const len = Math.hypot(b.x - a.x, b.y - a.y) || 1
    let nx = -(b.y - a.y) / len
    let ny = (b.x - a.x) / len
    if ((m.x - mid.x) * nx + (m.y - mid.y) * ny < 0) [nx, ny] = [-nx, -ny]
    return { x: m.x + nx * fontM * 0.7, y: m.y + ny * fontM * 0.7, text: outline.edges[i]!.lengthM.toFixed(2), angle }
  })
  // Room for the neighbours' names: a column each side, a line above and two below (with the street).
  const padX = fontM * 7
  const padY = fontM * 4.5
  return {
    viewBox: [minX - padX, minY - padY, maxX - minX + 2 * padX, maxY - minY + 2 * padY],
    points,
    corners,
    sides,
    fontM,
    strokeM: extentM / 250,
    extentM,
  }
}
