import { describe, expect, it } from 'vitest'
import { boxAreaM2, insideVietnam } from './box.ts'

describe('boxes in degrees', () => {
  it('measures a box on the spheroid: a degree square at the equator, and the northern hemisphere', () => {
    // 111.32 km × 110.57 km on WGS84, and half the spheroid's 510,065,622 km² north of the equator.
    expect(boxAreaM2([0, 0, 1, 1]) / 1e6).toBeCloseTo(12_308.8, 0)
    expect(boxAreaM2([-180, 0, 180, 90]) / 1e6).toBeCloseTo(510_065_622 / 2, -2)
  })

  it('keeps only boxes within Việt Nam, the archipelagos included, west of east and south of north', () => {
    expect(insideVietnam([106.7, 10.77, 106.71, 10.78])).toBe(true)
    expect(insideVietnam([111.5, 16.5, 111.6, 16.6])).toBe(true)
    expect(insideVietnam([-179.9999999, 15.1, 179.9999999, 15.101])).toBe(false)
    expect(insideVietnam([106.71, 10.77, 106.7, 10.78])).toBe(false)
    expect(insideVietnam([2.35, 48.85, 2.36, 48.86])).toBe(false)
  })
})
