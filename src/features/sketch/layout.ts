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

/**
 * Where each compass side's names go: a column on the west and east edges (north-west high, south-west
 * low), a line above and one below the parcel. [column −1..1, row −1..1] in the drawing's frame.
 */
const SIDE_PLACE: Record<string, [number, number]> = {
  Bắc: [0, -1],
  'Đông Bắc': [1, -0.5],
  Đông: [1, 0],
  'Đông Nam': [1, 0.5],
  Nam: [0, 1],
  'Tây Nam': [-1, 0.5],
  Tây: [-1, 0],
  'Tây Bắc': [-1, -0.5],
}

/** At most this many lines of names per side; the rest are counted on the last one. */
export const NAMES_PER_SIDE = 3

export type NeighbourPlace = {
  side: string
  x: number
  anchor: 'start' | 'middle' | 'end'
  lines: { text: string; y: number }[]
}

/** The baseline of the street's name, along the drawing's bottom edge. */
export const streetBaseline = (l: Pick<Layout, 'viewBox' | 'fontM'>) => l.viewBox[1] + l.viewBox[3] - l.fontM * 0.6

/**
 * The neighbours' names by side, placed so they cover neither each other nor the street's name: a
 * side's lines stand centred on its place, the south side's grow upwards from above the street, and a
 * long list is cut to NAMES_PER_SIDE lines ("và 4 thửa khác").
 */
export function neighbourPlaces(
  l: Pick<Layout, 'viewBox' | 'fontM'>,
  bySide: ReadonlyMap<string, string[]>,
): NeighbourPlace[] {
  const [vx, vy, vw, vh] = l.viewBox
  const f = l.fontM
  const lineH = f * 0.85
  const cx = vx + vw / 2
  const cy = vy + vh / 2
  return [...bySide].map(([side, names]) => {
    const shown =
      names.length > NAMES_PER_SIDE
        ? [...names.slice(0, NAMES_PER_SIDE - 1), `và ${names.length - NAMES_PER_SIDE + 1} thửa khác`]
        : names
    const [col, row] = SIDE_PLACE[side] ?? [0, 0]
    const x = col < 0 ? vx + f * 0.3 : col > 0 ? vx + vw - f * 0.3 : cx
    const anchor = col < 0 ? 'start' : col > 0 ? 'end' : 'middle'
    const first =
      col === 0 && row < 0
        ? vy + f * 1.6
        : col === 0 && row > 0
          ? streetBaseline(l) - f * 1.2 - (shown.length - 1) * lineH
          : cy + row * (vh / 2 - f * 4) - ((shown.length - 1) * lineH) / 2
    return { side, x, anchor, lines: shown.map((text, i) => ({ text, y: first + i * lineH })) }
  })
}
