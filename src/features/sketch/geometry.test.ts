import { describe, expect, it } from 'vitest'
import { fromVn2000 } from '#core/geo/vn2000.ts'
import { largestOffset, outerRing, outlineOf, planeArea, type LngLat } from './geometry.ts'

const M = 105.75
/** A ring given as VN-2000 X/Y, turned into lon/lat as the API returns it. */
const ringFromPlane = (pts: [x: number, y: number][]): LngLat[] =>
  pts.map(([x, y]) => {
    const p = fromVn2000(x, y, M)
    return [p.lng, p.lat]
  })

// A 10 m (east–west) × 20 m (north–south) rectangle, listed anticlockwise from the south-east corner, closed.
const X0 = 1_194_000
const Y0 = 602_000
const rect = ringFromPlane([
  [X0, Y0 + 10],
  [X0 + 20, Y0 + 10],
  [X0 + 20, Y0],
  [X0, Y0],
  [X0, Y0 + 10],
])

describe('parcel outline in VN-2000', () => {
  it('numbers the corners clockwise from the north-west corner and drops the closing point', () => {
    const o = outlineOf(rect, M)!
    expect(o.corners).toHaveLength(4)
    const xy = o.corners.map((c) => [Math.round(c.x * 1000) / 1000, Math.round(c.y * 1000) / 1000])
    expect(xy).toEqual([
      [X0 + 20, Y0],
      [X0 + 20, Y0 + 10],
      [X0, Y0 + 10],
      [X0, Y0],
    ])
    expect(o.corners.map((c) => c.n)).toEqual([1, 2, 3, 4])
  })

  it('gives each side its plane length, the area and the perimeter', () => {
    const o = outlineOf(rect, M)!
    expect(o.edges.map((e) => [e.from, e.to, Number(e.lengthM.toFixed(3))])).toEqual([
      [1, 2, 10],
      [2, 3, 20],
      [3, 4, 10],
      [4, 1, 20],
    ])
    expect(o.areaM2).toBeCloseTo(200, 3)
    expect(o.perimeterM).toBeCloseTo(60, 3)
  })

  it('merges repeated vertices and refuses fewer than three corners', () => {
    const [a, b, c] = rect as [LngLat, LngLat, LngLat]
    expect(outlineOf([a, a, b, b, c, a], M)!.corners).toHaveLength(3)
    expect(outlineOf([a, b, a], M)).toBeNull()
  })

  it('takes a polygon’s outer ring and a multipolygon’s largest part', () => {
    const small = ringFromPlane([
      [X0 + 100, Y0 + 100],
      [X0 + 101, Y0 + 100],
      [X0 + 101, Y0 + 101],
    ])
    expect(outerRing({ type: 'Polygon', coordinates: [rect, small] })).toBe(rect)
    expect(outerRing({ type: 'MultiPolygon', coordinates: [[small], [rect]] })).toBe(rect)
    expect(outerRing({ type: 'Point', coordinates: [106, 10] })).toBeNull()
  })
})

describe('comparing two outlines', () => {
  const square = (s: number, dx = 0): { x: number; y: number }[] => [
    { x: 0, y: dx },
    { x: s, y: dx },
    { x: s, y: s + dx },
    { x: 0, y: s + dx },
  ]
  it('measures the plane area of a walked ring in any direction', () => {
    expect(planeArea(square(10))).toBe(100)
    expect(planeArea([...square(10)].reverse())).toBe(100)
  })
  it('finds the largest offset between boundaries, both ways', () => {
    expect(largestOffset(square(10), square(10))).toBe(0)
    expect(largestOffset(square(10), square(10, 1.5))).toBeCloseTo(1.5, 9)
    // A smaller outline inside: its corners sit 1 m in, the outer corners are √2 m from it.
    const inner = square(8).map((p) => ({ x: p.x + 1, y: p.y + 1 }))
    expect(largestOffset(inner, square(10))).toBeCloseTo(Math.SQRT2, 9)
  })
})
