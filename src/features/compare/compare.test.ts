import { describe, expect, it } from 'vitest'
import type { PlanComparison } from '#core/contract/plans.ts'
import { bboxAreaKm2, comparableArea, direction, drawingFrame, valueText, verdict } from './compare.ts'

const comparison = (over: Partial<PlanComparison> = {}): PlanComparison => ({
  changes: [],
  road_reserves: [],
  unchanged_m2: 0,
  only_from_m2: 0,
  only_to_m2: 0,
  pieces: { from: [], to: [] },
  ...over,
})
const change = (
  field: 'land_use' | 'max_floors',
  from: string | number | null,
  to: string | number | null,
  area_m2: number,
) => ({
  field,
  from,
  to,
  from_name: null,
  to_name: null,
  area_m2,
  geometry: { type: 'Polygon', coordinates: [] },
})

describe('plan comparison texts', () => {
  it('writes each value as the card does: land use with its name, %, floors, FAR, and no limit', () => {
    expect(valueText('land_use', 'DGD', 'Đất xây dựng cơ sở giáo dục')).toBe('DGD — Đất xây dựng cơ sở giáo dục')
    expect(valueText('land_use', 'ODT', null)).toBe('ODT')
    expect(valueText('max_density_pct', 70, null)).toBe('70%')
    expect(valueText('max_floors', 7, null)).toBe('7 tầng')
    expect(valueText('max_far', 4.2, null)).toBe('4,2')
    expect(valueText('max_floors', null, null)).toBe('Không quy định')
  })

  it('tells a raised limit from a lowered one, and says nothing of land use or a limit added or dropped', () => {
    expect(direction(change('max_floors', 5, 7, 1))).toBe('up')
    expect(direction(change('max_floors', 7, 5, 1))).toBe('down')
    expect(direction(change('max_floors', 5, null, 1))).toBeNull()
    expect(direction(change('land_use', 'ODT', 'DGD', 1))).toBeNull()
  })

  it('sums the changed area per field with its share of the place, and says when nothing changed', () => {
    const c = comparison({
      changes: [
        change('land_use', 'ODT', 'DGD', 300),
        change('max_floors', 5, 7, 200),
        change('max_floors', 5, null, 300),
      ],
    })
    expect(verdict(c, 1000)).toBe('Thay đổi: chức năng sử dụng đất (300 m², 30%); tầng cao tối đa (500 m², 50%).')
    expect(verdict(comparison(), 1000)).toBe('Hai đồ án giống nhau ở đây: không chỉ tiêu nào thay đổi.')
    expect(verdict(comparison({ only_to_m2: 50 }), 1000)).toBe('Chỉ phạm vi hai đồ án khác nhau.')
  })
})

describe('compared places', () => {
  it('measures a box as the server does and refuses one too wide or outside Việt Nam before asking the server', () => {
    // 0.01° × 0.01° at 10.8° N on WGS84: 1.106 km of latitude × 1.093 km of longitude.
    expect(bboxAreaKm2([106.7, 10.8, 106.71, 10.81])).toBeCloseTo(1.2097, 3)
    expect(comparableArea([106.7, 10.8, 106.71, 10.81])).toBe(true)
    expect(comparableArea([106.6, 10.8, 106.7, 10.9])).toBe(false)
    expect(comparableArea([-179.9999999, 15.1, 179.9999999, 15.101])).toBe(false)
  })

  it('draws polygons north up in metres, holes as rings of the same path', () => {
    const region = {
      type: 'Polygon',
      coordinates: [
        [
          [106, 10],
          [106.001, 10],
          [106.001, 10.001],
          [106, 10.001],
          [106, 10],
        ],
      ],
    }
    const frame = drawingFrame(region, 0)
    const [, , w, h] = frame.viewBox.split(' ').map(Number)
    expect(w).toBeCloseTo(109.6, 0)
    expect(h).toBeCloseTo(110.6, 0)
    // The north-west corner is the drawing's origin; the south-west lies below it.
    expect(frame.path(region)).toMatch(/^M0\.0 110\.6L109\.6 110\.6L109\.6 0\.0L0\.0 0\.0L0\.0 110\.6Z$/)
    const withHole = { type: 'MultiPolygon', coordinates: [[region.coordinates[0], region.coordinates[0]]] }
    expect(frame.path(withHole).match(/M/g)).toHaveLength(2)
    expect(frame.path({ type: 'Point', coordinates: [106, 10] })).toBe('')
  })
})
