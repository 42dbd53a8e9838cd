import { beforeAll, describe, expect, it } from 'vitest'
import type { Database } from '../db/index.ts'
import { demoLoaded } from '../testing/demo.ts'
import { fitElasticities } from './market.ts'
import { valuate } from './valuation.ts'

type Sale = { id: string; lat: number; lng: number; date: string; price: number; area_m2: number; frontage_m: number; alley_width_m: number | null; floors: number }

let db: Database
beforeAll(async () => {
  db = await demoLoaded()
})

describe('the market estimator on held-out demo sales', () => {
  it('is within 15 % (median absolute error) and holds ≥ 80 % of true prices inside [low, high]', { timeout: 300_000 }, async () => {
    // Every tenth sale is held out: the elasticities are fitted without any of them, and each one is
    // valued as of its own date from the other sales, never itself.
    const held = await db.query<Sale>(
      `select id::text as id, ST_Y(geom)::float8 as lat, ST_X(geom)::float8 as lng, observed_at::text as date, price_vnd::float8 as price,
         area_m2::float8 as area_m2, frontage_m::float8 as frontage_m, alley_width_m::float8 as alley_width_m, floors
       from comparables where dataset_id = 'demo' and id % 10 = 3 order by id`,
    )
    expect(held.length).toBeGreaterThanOrEqual(250)
    const elasticities = await fitElasticities(db, { excludeIds: held.map((s) => s.id) })
    const errors: number[] = []
    let inside = 0
    for (const s of held) {
      const v = await valuate(
        db,
        { lat: s.lat, lng: s.lng, area_m2: s.area_m2, frontage_m: s.frontage_m, alley_width_m: s.alley_width_m ?? 0, floors: s.floors },
        { asOf: s.date, elasticities, excludeIds: [s.id] },
      )
      const m = v.market_estimate
      if (!m) throw new Error(`no estimate for held-out sale ${s.id}`)
      expect(v.comparables.some((c) => c.id === s.id)).toBe(false)
      errors.push(Math.abs(m.mid_vnd - s.price) / s.price)
      if (s.price >= m.low_vnd && s.price <= m.high_vnd) inside += 1
    }
    errors.sort((a, b) => a - b)
    const mdape = errors[Math.floor(errors.length / 2)] as number
    const coverage = inside / held.length
    console.log(`valuation on ${held.length} held-out sales: median absolute error ${(mdape * 100).toFixed(1)} %, ${(coverage * 100).toFixed(1)} % inside [low, high]`)
    expect(mdape).toBeLessThanOrEqual(0.15)
    expect(coverage).toBeGreaterThanOrEqual(0.8)
  })
})
