import { describe, expect, it } from 'vitest'
import {
  adjustmentFormula,
  hasAdjustments,
  inputLine,
  relationLabel,
  signedPercent,
  weightText,
} from './adjustments.ts'
import { laneOffset, spreadPoints, swarmLanes } from './chart-layout.ts'
import { valuationFixture } from './test-fixtures.ts'

describe('adjustments in words', () => {
  it('writes a change in percent with its sign, never "−0 %"', () => {
    expect(signedPercent(-33.57)).toBe('−33,6\u00a0%')
    expect(signedPercent(7.49)).toBe('+7,5\u00a0%')
    expect(signedPercent(-0.01)).toBe('0\u00a0%')
    expect(weightText(0.004)).toBe('0,4 %')
    expect(weightText(0.6)).toBe('60 %')
  })

  it('writes a sale’s chain from raw to adjusted price, leaving out factors that change nothing', () => {
    const [repeat, other] = valuationFixture.comparables
    expect(adjustmentFormula(repeat!)).toBe('102.941.176 × (1 + 7,49 %) = 110.651.470 đ/m²')
    expect(adjustmentFormula(other!)).toBe(
      '174.142.973 × (1 − 68,26 %) × (1 + 101,3 %) × (1 + 11,82 %) × (1 − 0,6 %) × (1 + 5,56 %) = 130.545.500 đ/m²',
    )
    expect(relationLabel(repeat!)).toBe('Chính thửa này')
    expect(relationLabel(other!)).toBeNull()
  })

  it('tells a result saved before adjustments were sent from one that has them', () => {
    expect(hasAdjustments(valuationFixture)).toBe(true)
    const old = {
      ...valuationFixture,
      comparables: valuationFixture.comparables.map(({ adjustments: _a, adjusted_vnd_per_m2: _b, ...c }) => c),
    }
    expect(hasAdjustments(old)).toBe(false)
  })

  it('says where each input came from', () => {
    expect(inputLine({ field: 'alley_width_m', value: 6, from: 'typed' })).toEqual({
      label: 'Hẻm',
      value: 'rộng 6 m',
      from: 'bạn nhập',
    })
    expect(inputLine({ field: 'alley_width_m', value: 0, from: 'parcel' })).toEqual({
      label: 'Hẻm',
      value: 'mặt tiền đường',
      from: 'dữ liệu thửa đất',
    })
    expect(inputLine({ field: 'floors', value: null, from: 'default' }).from).toBe('mặc định')
  })
})

describe('laying out markers that would overlap', () => {
  it('puts dots closer than the gap in different lanes, alternating above and below the axis', () => {
    expect(swarmLanes([10, 12, 14, 40], 5)).toEqual([0, 1, 2, 0])
    expect([0, 1, 2, 3, 4].map(laneOffset)).toEqual([0, -1, 1, -2, 2])
  })

  it('spreads map markers of one house so each is at least the gap from every other, the first one in place', () => {
    const points: [number, number][] = [
      [100, 100],
      [100, 100],
      [101, 99],
      [160, 100],
    ]
    const out = spreadPoints(points, 20)
    expect(out[0]).toEqual([100, 100])
    expect(out[3]).toEqual([160, 100])
    for (let i = 0; i < out.length; i++) {
      for (let j = i + 1; j < out.length; j++)
        expect(Math.hypot(out[i]![0] - out[j]![0], out[i]![1] - out[j]![1])).toBeGreaterThanOrEqual(19.99)
    }
  })
})
