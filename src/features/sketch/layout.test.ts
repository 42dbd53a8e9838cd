import { describe, expect, it } from 'vitest'
import { layoutOf, NAMES_PER_SIDE, neighbourPlaces, printScale, streetBaseline } from './layout.ts'
import type { Outline } from './geometry.ts'

const outline: Outline = {
  meridian: 105.75,
  corners: [
    { n: 1, lat: 0, lng: 0, x: 120, y: 0 },
    { n: 2, lat: 0, lng: 0, x: 120, y: 10 },
    { n: 3, lat: 0, lng: 0, x: 100, y: 10 },
    { n: 4, lat: 0, lng: 0, x: 100, y: 0 },
  ],
  edges: [
    { from: 1, to: 2, lengthM: 10 },
    { from: 2, to: 3, lengthM: 20 },
    { from: 3, to: 4, lengthM: 10 },
    { from: 4, to: 1, lengthM: 20 },
  ],
  areaM2: 200,
  perimeterM: 60,
}

describe('sketch layout', () => {
  it('draws north up with easting to the right, in metres', () => {
    const l = layoutOf(outline)
    expect(l.points[0]).toEqual({ x: 0, y: -120 })
    expect(l.points[2]).toEqual({ x: 10, y: -100 })
    const [x, y, w, h] = l.viewBox
    expect(x).toBeLessThan(0)
    expect(y).toBeLessThan(-120)
    expect(x + w).toBeGreaterThan(10)
    expect(y + h).toBeGreaterThan(-100)
  })

  it('puts each corner number outside its corner and each length outside its side, upright', () => {
    const l = layoutOf(outline)
    expect(l.corners[0]!.x).toBeLessThan(0)
    expect(l.corners[0]!.y).toBeLessThan(-120)
    expect(l.sides.map((s) => s.text)).toEqual(['10.00', '20.00', '10.00', '20.00'])
    expect(l.sides[0]!.y).toBeLessThan(-120)
    expect(l.sides[1]!.x).toBeGreaterThan(10)
    expect(l.sides.every((s) => s.angle > -90 && s.angle <= 90)).toBe(true)
  })

  it('picks the largest standard scale that fits the paper', () => {
    expect(printScale(20, 150)).toBe(200)
    expect(printScale(14, 150)).toBe(100)
    expect(printScale(400, 150)).toBe(5000)
    expect(printScale(9000, 150)).toBe(60_000)
  })
})

describe('neighbour names on the sketch', () => {
  const l = layoutOf(outline)
  const names = (n: number, from: number) => Array.from({ length: n }, (_, i) => `Thửa ${from + i}`)
  const places = neighbourPlaces(
    l,
    new Map([
      ['Nam', names(5, 10)],
      ['Đông Bắc', names(3, 20)],
      ['Đông', names(3, 30)],
      ['Đông Nam', names(3, 40)],
      ['Bắc', names(2, 50)],
    ]),
  )
  const lineH = l.fontM * 0.7
  const rows = (side: string) => places.find((p) => p.side === side)!.lines

  it('stacks the south side’s names upwards, clear of the street’s name below them', () => {
    const south = rows('Nam')
    expect(south).toHaveLength(NAMES_PER_SIDE)
    expect(south.at(-1)!.text).toBe('và 3 thửa khác')
    expect(south.at(-1)!.y).toBeLessThan(streetBaseline(l) - lineH)
  })

  it('keeps the names of sides sharing a column from running into each other', () => {
    const blocks = ['Đông Bắc', 'Đông', 'Đông Nam'].map((s) => rows(s).map((r) => r.y))
    for (let i = 0; i + 1 < blocks.length; i++)
      expect(Math.min(...blocks[i + 1]!) - Math.max(...blocks[i]!)).toBeGreaterThan(lineH)
  })

  it('keeps every name inside the drawing', () => {
    const [, vy, , vh] = l.viewBox
    for (const p of places) for (const r of p.lines) expect(r.y > vy && r.y < vy + vh, p.side).toBe(true)
  })
})
