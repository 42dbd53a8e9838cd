import { describe, expect, it } from 'vitest'
import { parcelContains, pointInParcel } from './parcel-point.ts'
import { parcelFixture } from '../../features/valuation/test-fixtures.ts'

const lShape = {
  geometry: {
    type: 'Polygon',
    // An L whose bounding-box centre (1.5, 1.5) lies outside it.
    coordinates: [
      [
        [0, 0],
        [3, 0],
        [3, 1],
        [1, 1],
        [1, 3],
        [0, 3],
        [0, 0],
      ],
    ],
  },
}

describe('a point on the parcel', () => {
  it('lies inside an L-shaped parcel, where the centre of its box does not', () => {
    expect(parcelContains(lShape, 1.5, 1.5)).toBe(false)
    const p = pointInParcel(lShape)!
    expect(parcelContains(lShape, p.lat, p.lng)).toBe(true)
  })

  it('lies inside a demo parcel given as a MultiPolygon', () => {
    const p = pointInParcel(parcelFixture)!
    expect(parcelContains(parcelFixture, p.lat, p.lng)).toBe(true)
  })

  it('avoids a hole in the parcel', () => {
    const donut = {
      geometry: {
        type: 'Polygon',
        coordinates: [
          [
            [0, 0],
            [4, 0],
            [4, 4],
            [0, 4],
            [0, 0],
          ],
          [
            [1, 1],
            [3, 1],
            [3, 3],
            [1, 3],
            [1, 1],
          ],
        ],
      },
    }
    expect(parcelContains(donut, 2, 2)).toBe(false)
    const p = pointInParcel(donut)!
    expect(parcelContains(donut, p.lat, p.lng)).toBe(true)
  })

  it('has none for a geometry that is not an area', () => {
    expect(pointInParcel({ geometry: { type: 'Point', coordinates: [1, 2] } })).toBeNull()
  })
})
