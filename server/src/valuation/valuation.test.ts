import { beforeAll, describe, expect, it } from 'vitest'
import { valuationDataTexts } from '#core/messages.ts'
import type { Database } from '../db/index.ts'
import { demoLoaded } from '../testing/demo.ts'
import { fitElasticities, LOCATION_BOUND, REPEAT_SHARE, type Elasticities } from './market.ts'
import { valuate } from './valuation.ts'

let db: Database
let elasticities: Elasticities
let point: { lat: number; lng: number }
beforeAll(async () => {
  db = await demoLoaded()
  elasticities = await fitElasticities(db)
  const [p] = await db.query<{ lat: number; lng: number }>(
    `select ST_Y(ST_PointOnSurface(geom))::float8 as lat, ST_X(ST_PointOnSurface(geom))::float8 as lng from parcels
     where sheet_no = 1 and parcel_no = 5 and address like '24 Đường Đinh Tiên Hoàng%'`,
  )
  if (!p) throw new Error('demo parcel tờ 1 thửa 5 missing')
  point = p
}, 300_000)

describe('valuing the demo parcel 24 Đường Đinh Tiên Hoàng (tờ 1 thửa 5)', () => {
  const typed = { frontage_m: 4.5, alley_width_m: 6, floors: 3 }

  it('puts its own earlier sale first, time-adjusted, with the largest weight, and says so', async () => {
    const v = await valuate(db, { ...point, ...typed }, { asOf: '2026-06-30', elasticities })
    const [first, ...rest] = v.comparables
    expect(first?.repeat_sale).toBe(true)
    expect(first?.date).toBe('2025-05-23')
    expect(first?.adjustments?.find((a) => a.factor === 'time')?.pct).toBeGreaterThan(0)
    expect(rest.every((c) => (c.weight ?? 0) < (first?.weight ?? 0))).toBe(true)
    expect(v.market_estimate?.method).toContain('Thửa này đã được bán tháng 5/2025')
  })

  it('shows adjustments that add up to each adjusted price, weights that add up to 1, and a confidence below 1', async () => {
    const v = await valuate(db, { ...point, ...typed }, { asOf: '2026-06-30', elasticities })
    const m = v.market_estimate
    if (!m) throw new Error('no market estimate')
    for (const c of v.comparables) {
      const adj = c.adjustments ?? []
      expect(adj.length).toBeGreaterThanOrEqual(4)
      expect(c.vnd_per_m2 + adj.reduce((s, a) => s + a.vnd_per_m2, 0)).toBe(c.adjusted_vnd_per_m2)
      expect(
        Math.abs(adj.reduce((p, a) => p * (1 + a.pct / 100), c.vnd_per_m2) - (c.adjusted_vnd_per_m2 ?? 0)),
      ).toBeLessThanOrEqual(0.5)
    }
    expect(v.comparables.reduce((s, c) => s + (c.weight ?? 0), 0)).toBeCloseTo(1, 2)
    expect(m.confidence).toBeLessThan(1)
    expect(['cao', 'trung_binh', 'thap']).toContain(m.confidence_level)
    const adjusted = v.comparables.map((c) => c.adjusted_vnd_per_m2 ?? 0)
    const inside = m.vnd_per_m2 >= Math.min(...adjusted) - 1000 && m.vnd_per_m2 <= Math.max(...adjusted) + 1000
    expect(inside || (m.warnings ?? []).length > 0).toBe(true)
    expect(m.low_vnd).toBeLessThan(m.mid_vnd)
    expect(m.high_vnd).toBeGreaterThan(m.mid_vnd)
  })

  it('lists the inputs with where each came from, and what the typed alley did to the figure', async () => {
    const v = await valuate(db, { ...point, ...typed }, { asOf: '2026-06-30', elasticities })
    const inputs = v.market_estimate?.inputs ?? []
    expect(inputs.map((i) => [i.field, i.from])).toEqual([
      ['area_m2', 'parcel'],
      ['frontage_m', 'typed'],
      ['alley_width_m', 'typed'],
      ['floors', 'typed'],
      ['vt1', 'parcel'],
    ])
    const alley = inputs.find((i) => i.field === 'alley_width_m')
    expect(alley?.note).toMatch(/^Hẻm 6 m thay vì mặt tiền \(theo thửa đất\): −\d+\u00a0%$/)
    expect(alley?.effect_pct).toBeLessThan(-15)
    // The alley's effect is the ratio of the two estimates on the same sales.
    const asRecorded = await valuate(db, { ...point, frontage_m: 4.5, floors: 3 }, { asOf: '2026-06-30', elasticities })
    const ratio = (v.market_estimate?.vnd_per_m2 ?? 0) / (asRecorded.market_estimate?.vnd_per_m2 ?? 1) - 1
    expect(ratio * 100).toBeCloseTo(alley?.effect_pct ?? 0, 0)
    expect(asRecorded.market_estimate?.inputs?.find((i) => i.field === 'alley_width_m')).toEqual({
      field: 'alley_width_m',
      value: 0,
      from: 'parcel',
    })
  })

  it("calls an area sent back as the parcel record has it the record's, not typed", async () => {
    const [parcel] = await db.query<{ area_m2: number }>(
      `select area_m2::float8 as area_m2 from parcels where sheet_no = 1 and parcel_no = 5 and address like '24 Đường Đinh Tiên Hoàng%'`,
    )
    const v = await valuate(db, { ...point, area_m2: parcel?.area_m2 }, { asOf: '2026-06-30', elasticities })
    expect(v.market_estimate?.inputs?.find((i) => i.field === 'area_m2')).toEqual({
      field: 'area_m2',
      value: parcel?.area_m2,
      from: 'parcel',
    })
  })
})

describe('valuing the demo parcel of the walkthrough, tờ 33 thửa 376 (sold 7 months before, 253 triệu/m²)', () => {
  const valued = async () => {
    const [p] = await db.query<{ lat: number; lng: number }>(
      `select ST_Y(ST_PointOnSurface(geom))::float8 as lat, ST_X(ST_PointOnSurface(geom))::float8 as lng from parcels
       where sheet_no = 33 and parcel_no = 376`,
    )
    if (!p) throw new Error('demo parcel tờ 33 thửa 376 missing')
    return valuate(db, p, { asOf: '2026-06-30', elasticities })
  }

  it('lets its own recent sale, time-adjusted, carry most of the estimate, which lies within ±10 % of it', async () => {
    const v = await valued()
    const own = v.comparables.find((c) => c.repeat_sale)
    expect(own?.weight).toBe(REPEAT_SHARE)
    const m = v.market_estimate
    expect(Math.abs((m?.vnd_per_m2 ?? 0) / (own?.adjusted_vnd_per_m2 ?? 1) - 1)).toBeLessThanOrEqual(0.1)
    expect(m?.methods?.[0]).toMatchObject({ method: 'so_sanh', weight: 1 })
    expect(v.disclaimer).toMatch(/không phải chứng thư thẩm định giá/)
  })

  it('shows no comparable whose location adjustment passes the bound, and lists those dropped with the reason', async () => {
    const v = await valued()
    for (const c of v.comparables) {
      const location = c.adjustments?.find((a) => a.factor === 'location')?.pct ?? 0
      expect(Math.abs(location)).toBeLessThanOrEqual(LOCATION_BOUND * 100)
    }
    const excluded = v.market_estimate?.excluded ?? []
    expect(excluded.length).toBeGreaterThan(0)
    expect(excluded[0]?.reason).toMatch(/^Cần điều chỉnh vị trí \+\d+\u00a0% .*quá giới hạn ±30 %: khác thị trường\.$/)
    // Decree 71's order: the parcel's own sale, then the most recent half-year first.
    expect(v.comparables[0]?.repeat_sale).toBe(true)
  })

  it('names the date a sale is counted back from, not today', async () => {
    const v = await valued()
    const own = v.comparables.find((c) => c.repeat_sale)
    expect(own?.adjustments?.find((a) => a.factor === 'time')?.note).toBe(
      'Bán 2 tháng trước ngày ước tính 30/06/2026, đưa về giá ngày đó',
    )
  })
})

describe('a province whose stored price rule cannot be read', () => {
  it('logs the fault as an error and says so in the warnings instead of silently giving no state price', async () => {
    const [parcel] = await db.query<{ province: string; rule: unknown }>(
      `select p.province, r.rule from parcels p join price_position_rules r on r.province = p.province
       where p.sheet_no = 1 and p.parcel_no = 5 and p.address like '24 Đường Đinh Tiên Hoàng%'`,
    )
    if (!parcel) throw new Error('the demo province has no price rule')
    const errors: { msg: string; fields?: Record<string, unknown> }[] = []
    const logger = { error: (msg: string, fields?: Record<string, unknown>) => void errors.push({ msg, fields }) }
    const readable = await valuate(db, point, { asOf: '2026-06-30', elasticities, logger })
    expect(readable.state_price).not.toBeNull()
    expect(readable.market_estimate?.warnings ?? []).not.toContain(valuationDataTexts.PRICE_RULE_UNREADABLE)
    expect(errors).toEqual([])

    await db.query(`update price_position_rules set rule = $2::jsonb where province = $1`, [
      parcel.province,
      JSON.stringify({ kind: 'ratio', vt2: 'một nửa' }),
    ])
    try {
      const v = await valuate(db, point, { asOf: '2026-06-30', elasticities, logger })
      expect(v.state_price).toBeNull()
      expect(v.market_estimate?.warnings).toContain(valuationDataTexts.PRICE_RULE_UNREADABLE)
      // The estimate itself is the one the readable rule gave: the fault is told, not priced in.
      expect(v.market_estimate?.mid_vnd).toBe(readable.market_estimate?.mid_vnd)
      expect(errors).toHaveLength(1)
      expect(errors[0]).toMatchObject({ msg: 'price position rule unreadable', fields: { province: parcel.province } })
      expect(String(errors[0]!.fields?.error)).toMatch(/vt2/)
    } finally {
      await db.query(`update price_position_rules set rule = $2::jsonb where province = $1`, [
        parcel.province,
        JSON.stringify(parcel.rule),
      ])
    }
  })
})
