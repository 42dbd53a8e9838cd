import { describe, expect, it } from 'vitest'
import {
  calibratedConfidence,
  CALIBRATION,
  farInputs,
  levelOf,
  summarise,
  type AdjustedSale,
} from './market-evidence.ts'
import { adjustmentChain, logEffects, rawWeight, REPEAT_SALE_WEIGHT, type PropertyFacts } from './market-model.ts'
import { PRIOR } from './market.ts'
import { adjustmentNote } from './market-notes.ts'

// The typical effects the market fit starts from: fixed, so the figures below do not move with the data.
const b = PRIOR
const front: PropertyFacts = { vt1: 90e6, alley_width_m: 0, area_m2: 69.7, frontage_m: 4.61, floors: 3 }
const alley6: PropertyFacts = { ...front, alley_width_m: 6, frontage_m: 4.5 }

describe('adjusting a sale to the target', () => {
  it('makes raw × Π(1 + pct) equal the adjusted price and the đ/m² steps add up to it, to the đồng', () => {
    const sales: [PropertyFacts, number][] = [
      [{ vt1: 120e6, alley_width_m: 0, area_m2: 85, frontage_m: 5, floors: 4 }, 14],
      [{ vt1: 70e6, alley_width_m: 2.5, area_m2: 40.3, frontage_m: 3.7, floors: 2 }, 1.3],
      [{ vt1: 90e6, alley_width_m: 0, area_m2: 69.7, frontage_m: 4.61, floors: 3 }, 13.6],
    ]
    for (const [sale, age] of sales) {
      const raw = 103_123_457
      const { adjustments, adjusted } = adjustmentChain(raw, logEffects(alley6, sale, age, b))
      expect(adjustments.map((a) => a.factor)).toEqual(['location', 'alley', 'area', 'frontage', 'floors', 'time'])
      const product = adjustments.reduce((p, a) => p * (1 + a.pct / 100), raw)
      expect(Math.abs(product - adjusted)).toBeLessThanOrEqual(0.5)
      expect(raw + adjustments.reduce((s, a) => s + a.vnd_per_m2, 0)).toBe(adjusted)
      for (const a of adjustments) expect(Math.round(a.pct * 100)).toBeCloseTo(a.pct * 100, 6)
    }
  })

  it('moves a street-front sale down by the alley factor for a target in a 6 m alley, and says so', () => {
    const effects = logEffects(alley6, front, 0, b)
    const alley = effects.find((e) => e.factor === 'alley')
    expect(alley?.log).toBeCloseTo(-0.6 + 0.2 * Math.log(6), 10)
    expect(adjustmentNote('alley', alley6, front, 0, '2026-06-30')).toBe('Hẻm 6 m thay vì mặt tiền')
    expect(adjustmentNote('alley', alley6, { ...front, alley_width_m: 3 }, 0, '2026-06-30')).toBe('Hẻm 6 m thay vì 3 m')
    // Counted back from the estimate's own date, which the words name (not from today).
    expect(adjustmentNote('time', alley6, front, 13.6, '2026-06-30')).toBe(
      'Bán 14 tháng trước ngày ước tính 30/06/2026, đưa về giá ngày đó',
    )
  })

  it('leaves out a factor unknown on either side instead of guessing it', () => {
    const effects = logEffects({ ...front, floors: null, frontage_m: null }, front, 2, b)
    expect(effects.map((e) => e.factor)).toEqual(['location', 'alley', 'area', 'time'])
  })

  it('weighs a repeat sale of the parcel above any other sale of the same age', () => {
    expect(rawWeight(0, 12, 'same_parcel')).toBe(REPEAT_SALE_WEIGHT * rawWeight(0, 12, null))
    expect(rawWeight(0, 12, 'same_parcel')).toBeGreaterThan(rawWeight(0, 0, 'same_row'))
  })
})

const sale = (log: number, facts: Partial<PropertyFacts> = {}, extra: Partial<AdjustedSale> = {}): AdjustedSale => ({
  log,
  rawLog: log,
  w: 1,
  distance_m: 80,
  age_months: 6,
  facts: { ...front, ...facts },
  effects: [],
  ...extra,
})
const normalise = (xs: AdjustedSale[]) => xs.map((x) => ({ ...x, w: x.w / xs.reduce((a, y) => a + y.w, 0) }))

describe('the estimate, its range, warnings and confidence', () => {
  const dense = normalise(Array.from({ length: 20 }, (_, i) => sale(Math.log(100e6) + (i - 10) * 0.01)))

  it('puts the estimate inside the adjusted sales with a calibrated confidence below 1 and no warning when evidence is close', () => {
    const s = summarise(front, dense, 300)
    expect(s.warnings).toEqual([])
    expect(s.midLog).toBeGreaterThanOrEqual(Math.min(...dense.map((d) => d.log)))
    expect(s.midLog).toBeLessThanOrEqual(Math.max(...dense.map((d) => d.log)))
    expect(s.confidence).toBeLessThan(1)
    expect(s.level).toBe(levelOf(s.confidence))
    expect(s.loLog).toBeLessThan(s.midLog)
    expect(s.hiLog).toBeGreaterThan(s.midLog)
  })

  it('warns and widens the range when the target is in an alley and every sale fronts the street', () => {
    const base = summarise(front, dense, 300)
    const s = summarise(alley6, dense, 300)
    expect(s.warnings[0]).toMatch(/Không có giao dịch nào trong hẻm/)
    expect(s.hiLog - s.loLog).toBeGreaterThan(base.hiLog - base.loLog)
    expect(s.confidence).toBeLessThanOrEqual(base.confidence)
  })

  it('warns when the area is far from every sale, and when sales are few and far away', () => {
    expect(farInputs({ ...front, area_m2: 400 }, dense)[0]).toMatch(/^Diện tích 400 m² khác xa mọi giao dịch gần đó/)
    const few = summarise(front, normalise([sale(Math.log(100e6)), sale(Math.log(110e6))]), 2500)
    expect(few.warnings.some((w) => w.startsWith('Chỉ có 2 giao dịch'))).toBe(true)
    expect(few.warnings.some((w) => w.includes('bán kính 2.500 m'))).toBe(true)
    expect(few.level).not.toBe('cao')
  })

  it('explains an estimate below every raw sale by the factor that moved it', () => {
    const xs = normalise(
      dense.map((d) => ({ ...d, rawLog: d.log + 0.4, effects: [{ factor: 'alley' as const, log: -0.4 }] })),
    )
    expect(
      summarise(alley6, xs, 300).warnings.some((w) =>
        /^Đơn giá ước tính thấp hơn mọi giao dịch gần đó trước điều chỉnh, chủ yếu do hẻm \(−33 % bình quân\)\.$/.test(
          w,
        ),
      ),
    ).toBe(true)
  })
})

describe('the calibration table', () => {
  it('states "cao" only for bands measured at ≥ 80 %, never states 100 %, and falls with the evidence score', () => {
    for (const band of CALIBRATION) {
      expect(band.coverage).toBeLessThan(1)
      expect(levelOf(band.coverage) === 'cao').toBe(band.coverage >= 0.8)
    }
    const scores = CALIBRATION.map((band) => band.minScore)
    expect([...scores].sort((x, y) => y - x)).toEqual(scores)
    expect(calibratedConfidence(1)).toBeGreaterThanOrEqual(calibratedConfidence(0))
    expect(calibratedConfidence(10)).toBeLessThan(1)
  })
})
