import { beforeAll, describe, expect, it } from 'vitest'
import { demoLoaded } from '../testing/demo.ts'
import { DEMO, demoChecksum, type DemoPlan, PARCELS_PER_TILE, planDemo } from './generate.ts'

describe('the demo dataset generator', () => {
  it('produces the same rows for the same seed and different rows for another seed', () => {
    const a = demoChecksum(planDemo())
    const b = demoChecksum(planDemo())
    const c = demoChecksum(planDemo({ seed: 7 }))
    expect(a.sha256).toBe(b.sha256)
    expect(c.sha256).not.toBe(a.sha256)
  })

  it('generates the very rows recorded for the default demo and for a three-ward one of another seed', () => {
    // Digests of every generated row (demoChecksum), taken before planDemo was split into functions by what
    // each makes. The demo is what screenshots, docs and saved links show: a change to it must be made on
    // purpose, with new digests here.
    const digest = (plan: DemoPlan) => ({
      ...demoChecksum(plan),
      extent: plan.extent,
      tilesX: plan.tilesX,
      tilesY: plan.tilesY,
    })
    expect(digest(planDemo())).toEqual({
      sha256: 'c19a07665e1ef17f76c66cb6f52a8d6564e036ce947e468bf013e1c38d881d70',
      parcels: 21322,
      comparables: 3000,
      zones: 142,
      extent: { x0: -15, y0: -15, x1: 2015, y1: 1535 },
      tilesX: 1,
      tilesY: 1,
    })
    expect(digest(planDemo({ parcels: 50_000, seed: 7, salesPerTile: 50 }))).toEqual({
      sha256: 'e0060d30cd8a3dc76b3021d850a2a7271ad1d88ccbc3f220c35aca4b9a5e5f48',
      parcels: 63492,
      comparables: 150,
      zones: 426,
      extent: { x0: -15, y0: -15, x1: 4015, y1: 3055 },
      tilesX: 2,
      tilesY: 2,
    })
  })

  it('makes every ward of a larger set hold at least 20,000 parcels, so --parcels N gets at least N', () => {
    const plan = planDemo({ parcels: 70_000 })
    expect(plan.tiles).toBe(4)
    for (let t = 0; t < plan.tiles; t++) expect(plan.tile(t).parcels.length).toBeGreaterThanOrEqual(PARCELS_PER_TILE)
  })

  it('never plans a FAR larger than the building density times the floors allow, in any plan of any ward', () => {
    const plan = planDemo({ parcels: 70_000 })
    const impossible = Array.from({ length: plan.tiles }, (_, t) => plan.tile(t).zones)
      .flat()
      .filter((z) => z.max_far !== null && z.max_density_pct !== null && z.max_floors !== null)
      .filter((z) => z.max_far! > (z.max_density_pct! / 100) * z.max_floors! + 1e-9)
      .map((z) => `${z.plan} ${z.block_code}: ${z.max_density_pct}% × ${z.max_floors} < FAR ${z.max_far}`)
    expect(impossible).toEqual([])
  })

  it('prices every street segment with VT2–VT4 following the TP.HCM ratios', () => {
    const plan = planDemo()
    expect(new Set(plan.prices.map((p) => p.street_key))).toEqual(new Set(plan.streets.map((s) => s.key)))
    for (const p of plan.prices) {
      expect(Math.abs(p.vt2 - p.vt1 * 0.5)).toBeLessThanOrEqual(1000)
      expect(Math.abs(p.vt3 - p.vt2 * 0.8)).toBeLessThanOrEqual(1000)
      expect(Math.abs(p.vt4 - p.vt3 * 0.8)).toBeLessThanOrEqual(1000)
    }
  })
})

describe('the demo dataset in the database', () => {
  beforeAll(() => demoLoaded())

  it('holds ≥ 20,000 parcels, ~150 zones, 3,000 sales, three plans (two versions of the zoning plan), alleys of several widths and priced streets', async () => {
    const db = await demoLoaded()
    const ds = DEMO.datasetId
    const [counts] = await db.query<Record<string, number>>(
      `select
         (select count(*)::int from parcels where dataset_id = $1) as parcels,
         (select count(*)::int from planning_zones where dataset_id = $1) as zones,
         (select count(*)::int from comparables where dataset_id = $1) as sales,
         (select count(*)::int from plans where dataset_id = $1) as plans,
         (select count(distinct level)::int from plans where dataset_id = $1) as levels,
         (select count(*)::int from road_reserves where dataset_id = $1) as reserves,
         (select count(*)::int from streets s where dataset_id = $1 and class <> 'alley' and not exists (select 1 from price_rows p where p.street_id = s.id)) as unpriced,
         (select min(width_m)::float8 from streets where dataset_id = $1 and class = 'alley') as narrowest_alley,
         (select max(width_m)::float8 from streets where dataset_id = $1 and class = 'alley') as widest_alley,
         (select min(width_m)::float8 from streets where dataset_id = $1 and class = 'main') as narrowest_main,
         (select count(distinct code)::int from parcel_land_use u join parcels p on p.id = u.parcel_id where p.dataset_id = $1) as land_uses,
         (select count(*)::int from (select parcel_id from parcel_land_use group by parcel_id having count(*) = 2) two) as two_part,
         (select count(*)::int from comparables where dataset_id = $1 and observed_at < date '2026-06-30' - interval '24 months') as too_old,
         (select count(distinct kind)::int from base_features where dataset_id = $1) as feature_kinds,
         (select is_simulated::int from datasets where id = $1) as simulated`,
      [ds],
    )
    expect(counts).toMatchObject({
      plans: 3,
      levels: 2,
      sales: 3000,
      unpriced: 0,
      too_old: 0,
      feature_kinds: 5,
      simulated: 1,
    })
    expect(counts?.parcels).toBeGreaterThanOrEqual(20_000)
    expect(counts?.zones).toBeGreaterThanOrEqual(130)
    expect(counts?.zones).toBeLessThanOrEqual(170)
    expect(counts?.reserves).toBeGreaterThan(0)
    expect(counts?.narrowest_alley).toBeLessThan(2)
    expect(counts?.widest_alley).toBeGreaterThan(3.5)
    expect(counts?.narrowest_main).toBeGreaterThan(12)
    expect(counts?.land_uses).toBeGreaterThanOrEqual(6)
    expect(counts?.two_part).toBeGreaterThan(100)
  })

  it('keeps each parcel’s land-use parts adding up to its area and its stated area close to its real one', async () => {
    const db = await demoLoaded()
    const [row] = await db.query<{ bad_sum: number; worst_ratio: number }>(
      `select
         (select count(*)::int from (select p.id from parcels p join parcel_land_use u on u.parcel_id = p.id where p.dataset_id = $1
            group by p.id, p.area_m2 having abs(sum(u.area_m2) - p.area_m2) > 0.2) x) as bad_sum,
         (select max(abs(ST_Area(geom::geography) / area_m2 - 1))::float8 from parcels where dataset_id = $1) as worst_ratio`,
      [DEMO.datasetId],
    )
    expect(row?.bad_sum).toBe(0)
    expect(row?.worst_ratio).toBeLessThan(0.01)
  })
})
