import { describe, expect, it } from 'vitest'
import { fromVn2000 } from '#core/geo/vn2000.ts'
import { outlineOf, type LngLat } from '../sketch/index.ts'
import {
  compareWithParcel,
  finish,
  newWalk,
  offerFix,
  undoPoint,
  walkFigures,
  WORST_ACCURACY_M,
  type Fix,
  type Walk,
} from './track.ts'

const M = 105.75
const X0 = 1_194_000
const Y0 = 602_000
const at = (x: number, y: number, accuracyM = 3): Fix => {
  const p = fromVn2000(X0 + x, Y0 + y, M)
  return { lat: p.lat, lng: p.lng, accuracyM, at: 0 }
}
const start = (mode: 'corners' | 'auto') => newWalk({ id: 'w', now: 0, mode, meridian: M, parcelId: null, stepM: 3 })
const tapAll = (w: Walk, fixes: Fix[]) => fixes.reduce((acc, f) => offerFix(acc, f, true).walk, w)

describe('boundary walk', () => {
  it('records a tapped corner wherever it is, and gives area and perimeter of the walked polygon', () => {
    const w = tapAll(start('corners'), [at(0, 0), at(20, 0), at(20, 10), at(0, 10)])
    expect(w.points).toHaveLength(4)
    const f = walkFigures(w)
    expect(f.areaM2).toBeCloseTo(200, 3)
    expect(f.perimeterM).toBeCloseTo(60, 3)
    expect(f.worstAccuracyM).toBe(3)
  })

  it('in auto mode records a point only after the step distance, but a corner tap always', () => {
    let w = start('auto')
    w = offerFix(w, at(0, 0), false).walk
    const near = offerFix(w, at(1, 0), false)
    expect(near.skipped).toBe('too-close')
    w = offerFix(w, at(3.5, 0), false).walk
    w = offerFix(w, at(4, 0), true).walk
    expect(w.points.map((p) => p.corner)).toEqual([false, false, true])
  })

  it('does not record a point in corner mode without a tap', () => {
    expect(offerFix(start('corners'), at(0, 0), false).skipped).toBe('too-close')
  })

  it('refuses a fix worse than the accuracy limit, and anything once finished', () => {
    expect(offerFix(start('corners'), at(0, 0, WORST_ACCURACY_M + 1), true).skipped).toBe('inaccurate')
    expect(offerFix(finish(start('corners'), 1), at(0, 0), true).skipped).toBe('finished')
  })

  it('takes back the last point', () => {
    const w = tapAll(start('corners'), [at(0, 0), at(20, 0)])
    expect(undoPoint(w).points).toHaveLength(1)
  })

  it('compares with the registered parcel: area difference and largest offset', () => {
    const ring: LngLat[] = [at(0, 0), at(20, 0), at(20, 10), at(0, 10)].map((f) => [f.lng, f.lat])
    const parcel = outlineOf(ring, M)!
    // Walked half a metre east of the west side: 20 × 9.5 m.
    const w = tapAll(start('corners'), [at(0, 0.5), at(20, 0.5), at(20, 10), at(0, 10)])
    const c = compareWithParcel(w, parcel)!
    expect(c.registeredM2).toBeCloseTo(200, 3)
    expect(c.walkedM2).toBeCloseTo(190, 3)
    expect(c.differenceM2).toBeCloseTo(-10, 3)
    expect(c.differencePct).toBeCloseTo(-5, 3)
    expect(c.largestOffsetM).toBeCloseTo(0.5, 3)
    expect(compareWithParcel(tapAll(start('corners'), [at(0, 0)]), parcel)).toBeNull()
  })
})

describe('area uncertainty of a walk', () => {
  it('follows σ_A = ½ √(Σ σᵢ² dᵢ²) from each vertex’s accuracy, and a tighter gate refuses a coarser fix', () => {
    // A 20 × 10 m rectangle with every vertex at 5 cm (σ = 0.05/√2 per axis): each vertex's neighbours
    // are √(20² + 10²) apart, so σ_A = ½ √(4 × 0.00125 × 500) = 0.79 m².
    const w = tapAll(start('corners'), [at(0, 0, 0.05), at(20, 0, 0.05), at(20, 10, 0.05), at(0, 10, 0.05)])
    expect(walkFigures(w).areaSigmaM2).toBeCloseTo(0.5 * Math.sqrt(4 * 0.00125 * 500), 3)
    // One vertex at 1 m dominates.
    const coarse = tapAll(start('corners'), [at(0, 0, 1), at(20, 0, 0.05), at(20, 10, 0.05), at(0, 10, 0.05)])
    expect(walkFigures(coarse).areaSigmaM2).toBeGreaterThan(7)
    expect(offerFix(start('corners'), at(0, 0, 0.3), true, 0.05).skipped).toBe('inaccurate')
    expect(offerFix(start('corners'), at(0, 0, 0.03), true, 0.05).skipped).toBeNull()
  })
})
