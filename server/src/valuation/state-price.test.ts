import { describe, expect, it } from 'vitest'
import { priceAtPosition, priceRule } from './state-price.ts'

// The rules as the migration stores them for the two provinces.
const hcmc = priceRule.parse({
  kind: 'ratio',
  vt2: 0.5,
  vt3: 0.8,
  vt4: 0.8,
  alley_vt2_min_m: 5,
  alley_vt3_min_m: 3,
  deep_m: 100,
  deep_reduction: 0.1,
})
const hanoi = priceRule.parse({
  kind: 'width',
  vt2_min_m: 3.5,
  vt3_min_m: 2,
  distance_step_m: 100,
  distance_reduction: 0.1,
  max_reduction: 0.3,
})
const row = { vt1: 100_000_000, vt2: 50_000_000, vt3: 40_000_000, vt4: 32_000_000 }

describe('state price positions', () => {
  it('puts a street-front parcel at VT1 under both rules', () => {
    expect(priceAtPosition(hcmc, row, { alley_width_m: null, distance_m: 0 })).toEqual({
      position: 'VT1',
      price: 100_000_000,
    })
    expect(priceAtPosition(hanoi, row, { alley_width_m: 0, distance_m: 0 })).toEqual({
      position: 'VT1',
      price: 100_000_000,
    })
  })

  it('places TP.HCM alleys by width: ≥ 5 m VT2, 3–5 m VT3, under 3 m VT4', () => {
    expect(priceAtPosition(hcmc, row, { alley_width_m: 5, distance_m: 20 })?.position).toBe('VT2')
    expect(priceAtPosition(hcmc, row, { alley_width_m: 4, distance_m: 20 })?.position).toBe('VT3')
    expect(priceAtPosition(hcmc, row, { alley_width_m: 2.9, distance_m: 20 })).toEqual({
      position: 'VT4',
      price: 32_000_000,
    })
  })

  it('derives VT2–VT4 from the TP.HCM ratios when the table lists only VT1', () => {
    const onlyVt1 = { vt1: 100_000_000, vt2: null, vt3: null, vt4: null }
    expect(priceAtPosition(hcmc, onlyVt1, { alley_width_m: 6, distance_m: 10 })?.price).toBe(50_000_000)
    expect(priceAtPosition(hcmc, onlyVt1, { alley_width_m: 1.5, distance_m: 10 })?.price).toBe(32_000_000)
  })

  it('takes 10 % off a TP.HCM alley position 100 m or more from the street, once', () => {
    expect(priceAtPosition(hcmc, row, { alley_width_m: 6, distance_m: 99 })?.price).toBe(50_000_000)
    expect(priceAtPosition(hcmc, row, { alley_width_m: 6, distance_m: 100 })?.price).toBe(45_000_000)
    expect(priceAtPosition(hcmc, row, { alley_width_m: 6, distance_m: 350 })?.price).toBe(45_000_000)
  })

  it('places Hà Nội alleys by width: ≥ 3.5 m VT2, 2–3.5 m VT3, under 2 m VT4', () => {
    expect(priceAtPosition(hanoi, row, { alley_width_m: 3.5, distance_m: 0 })?.position).toBe('VT2')
    expect(priceAtPosition(hanoi, row, { alley_width_m: 2, distance_m: 0 })?.position).toBe('VT3')
    expect(priceAtPosition(hanoi, row, { alley_width_m: 1.9, distance_m: 0 })?.position).toBe('VT4')
  })

  it('reduces a Hà Nội position 10 % per 100 m from the street, at most 30 %', () => {
    expect(priceAtPosition(hanoi, row, { alley_width_m: 4, distance_m: 250 })?.price).toBe(40_000_000)
    expect(priceAtPosition(hanoi, row, { alley_width_m: 4, distance_m: 900 })?.price).toBe(35_000_000)
  })

  it('gives no price for a position a width-rule table does not list', () => {
    expect(
      priceAtPosition(
        hanoi,
        { vt1: 100_000_000, vt2: null, vt3: null, vt4: null },
        { alley_width_m: 4, distance_m: 0 },
      ),
    ).toBeNull()
  })

  it('refuses a rule of an unknown kind', () => {
    expect(priceRule.safeParse({ kind: 'guess', vt2: 0.5 }).success).toBe(false)
  })
})
