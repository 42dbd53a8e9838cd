import { describe, expect, it } from 'vitest'
import { fromVn2000 } from '#core/geo/vn2000.ts'
import { guide, type Target } from './guide.ts'

const M = 105.75
const target: Target = { x: 1_194_000, y: 602_000, meridian: M, corner: 1, label: 'Góc 1' }
/** Standing `south` metres south and `west` metres west of the target. */
const standing = (south: number, west: number, accuracyM: number | null = 0.01) => ({
  ...fromVn2000(target.x - south, target.y - west, M),
  accuracyM,
})

describe('stakeout guidance', () => {
  it('says how far to go north and east, in centimetres below a metre', () => {
    const g = guide(standing(1.24, 0.37), target, 0.05)
    expect(g.north).toBeCloseTo(1.24, 3)
    expect(g.east).toBeCloseTo(0.37, 3)
    expect(g.words).toBe('Đi về phía Bắc 1,24 m, phía Đông 37 cm')
    expect(g.distanceM).toBeCloseTo(Math.hypot(1.24, 0.37), 3)
    expect(g.bearingDeg).toBeCloseTo((Math.atan2(0.37, 1.24) * 180) / Math.PI, 1)
    expect(g.reached).toBe(false)
  })

  it('turns south and west the other way round, and drops a leg under half a centimetre', () => {
    const g = guide(standing(-0.02, -3.5), target, 0.01)
    expect(g.words).toBe('Đi về phía Nam 2 cm, phía Tây 3,5 m')
    expect(g.bearingDeg).toBeGreaterThan(180)
    expect(guide(standing(0.3, 0.002), target, 0.01).words).toBe('Đi về phía Bắc 30 cm')
  })

  it('is reached within the tolerance and not a centimetre beyond', () => {
    expect(guide(standing(0.03, 0.03), target, 0.05).reached).toBe(true)
    expect(guide(standing(0.04, 0.04), target, 0.05).reached).toBe(false)
    expect(guide(standing(0.03, 0.03), target, 0.05).words).toBe('Đã tới mốc')
    // A phone's fix cannot confirm centimetres.
    const coarse = guide(standing(0.01, 0.01, 4), target, 0.05)
    expect([coarse.reached, coarse.unsure]).toEqual([false, true])
  })
})
