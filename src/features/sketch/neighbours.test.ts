import { describe, expect, it } from 'vitest'
import { fromVn2000 } from '#core/geo/vn2000.ts'
import { outlineOf, type LngLat } from './geometry.ts'
import { nearestStreet, neighboursOf, sideOf, type TileParcel } from './neighbours.ts'

const M = 105.75
const X0 = 1_194_000
const Y0 = 602_000
const ll = (x: number, y: number): LngLat => {
  const p = fromVn2000(X0 + x, Y0 + y, M)
  return [p.lng, p.lat]
}
/** A square of side s with its south-west corner at (x, y) metres from the origin (x north, y east). */
const square = (x: number, y: number, s = 10): LngLat[] => [
  ll(x, y),
  ll(x + s, y),
  ll(x + s, y + s),
  ll(x, y + s),
  ll(x, y),
]
const parcel = (id: string, no: number, ring: LngLat[]): TileParcel => ({ id, sheetNo: 7, parcelNo: no, ring })

describe('neighbouring parcels from tiles', () => {
  const subject = outlineOf(square(0, 0), M)!

  it('lists the parcels sharing a boundary once each, clockwise from the north, with their side', () => {
    const tiles = [
      parcel('self', 1, square(0, 0)),
      parcel('n', 2, square(10, 0)),
      parcel('e', 3, square(0, 10)),
      parcel('e', 3, square(0, 10)),
      parcel('w', 5, square(0, -10)),
      parcel('far', 6, square(30, 30)),
      parcel('gap', 7, square(-12, 0)),
    ]
    expect(neighboursOf(subject, 'self', tiles)).toEqual([
      { id: 'n', sheetNo: 7, parcelNo: 2, side: 'Bắc' },
      { id: 'e', sheetNo: 7, parcelNo: 3, side: 'Đông' },
      { id: 'w', sheetNo: 7, parcelNo: 5, side: 'Tây' },
    ])
  })

  it('names a neighbour by the side of the parcel it shares, not by where its middle lies: a north–south strip’s neighbours are east and west', () => {
    /** A rectangle w metres east–west and h metres north–south with its south-west corner at (x, y). */
    const rect = (x: number, y: number, w: number, h: number): LngLat[] => [
      ll(x, y),
      ll(x + h, y),
      ll(x + h, y + w),
      ll(x, y + w),
      ll(x, y),
    ]
    const strip = outlineOf(rect(0, 0, 5, 40), M)!
    const found = neighboursOf(strip, 'self', [
      parcel('e', 3, rect(15, 5, 5, 40)),
      parcel('w', 5, rect(-20, -5, 5, 40)),
      parcel('n', 2, rect(40, 0, 5, 12)),
    ])
    expect(found.map((n) => [n.id, n.side])).toEqual([
      ['n', 'Bắc'],
      ['e', 'Đông'],
      ['w', 'Tây'],
    ])
  })

  it('names the eight compass sides', () => {
    expect([
      sideOf(1, 0),
      sideOf(1, 1),
      sideOf(0, 1),
      sideOf(-1, 1),
      sideOf(-1, 0),
      sideOf(-1, -1),
      sideOf(0, -1),
      sideOf(1, -1),
    ]).toEqual(['Bắc', 'Đông Bắc', 'Đông', 'Đông Nam', 'Nam', 'Tây Nam', 'Tây', 'Tây Bắc'])
  })

  it('takes the nearest named street within reach', () => {
    const streets = [
      { name: 'Đường Xa', line: [ll(-60, -20), ll(-60, 40)] },
      { name: 'Đường Gần', line: [ll(-4, -20), ll(-4, 40)] },
      { name: '', line: [ll(-1, -20), ll(-1, 40)] },
    ]
    const s = nearestStreet(subject, streets)
    expect(s?.name).toBe('Đường Gần')
    expect(s!.distanceM).toBeCloseTo(4, 2)
    expect(nearestStreet(subject, [streets[0]!])).toBeNull()
  })
})
