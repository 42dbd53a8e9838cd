import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { planningData } from '#core/contract/lookups.ts'
import { compareData, type CompareData } from '#core/contract/plans.ts'
import { MAX_COMPARE_VERTICES } from '#core/limits.ts'
import { createTestUser, type TestUser } from '../accounts/test-user.ts'
import type { Database } from '../db/index.ts'
import { demoLoaded } from '../testing/demo.ts'
import { createTestApp, type TestApp } from '../testing/test-app.ts'

/*
 * Two versions of a zoning plan over one block in Quảng Ngãi (far from the demo ward), 0.002° × 0.001°:
 * the 2018 plan made it all housing (ODT, 5 floors, 80 %, FAR 3) with a 10 m reserve for Đường A along
 * its south edge; the 2024 plan keeps the west half housing with 7 floors, 70 %, FAR 4.2 and makes the
 * east half a road (DGT, no limits), widens Đường A to 20 m and adds a 10 m reserve for Đường B along the
 * east edge. A general plan (QHC) covers the block too, and a parcel sits in the east half.
 */
const DATASET = `compare-${Date.now().toString(36)}${Math.random().toString(36).slice(2, 6)}`
const [W, S, E, N] = [108.8, 15.1, 108.802, 15.101]
const MID = (W + E) / 2
const env = (w: number, s: number, e: number, n: number) => `ST_Multi(ST_MakeEnvelope(${w}, ${s}, ${e}, ${n}, 4326))`
// Strip widths in degrees of latitude / longitude for about 10 m at this latitude.
const DLAT10 = 10 / 110_650
const DLNG10 = 10 / 107_480

let t: TestApp
let db: Database
let user: TestUser
const ids: Record<'old' | 'new' | 'qhc', string> = { old: '', new: '', qhc: '' }

/** The geodesic area of a geometry written in SQL, as the comparison measures it. */
const areaOf = async (geomSql: string) =>
  (await db.query<{ a: number }>(`select ST_Area((${geomSql})::geography)::float8 as a`))[0]!.a

beforeAll(async () => {
  t = await createTestApp({ DAILY_LOOKUP_LIMIT: '1000' })
  db = t.db
  user = await createTestUser(t)
  await db.query(
    `insert into datasets (id, kind, name, source, data_date, crs, bounds)
     values ($1, 'planning', 'Quy hoạch thử nghiệm', 'Sở Xây dựng (thử nghiệm)', '2024-05-01', 'vn2000:108', ST_MakeEnvelope($2, $3, $4, $5, 4326))`,
    [DATASET, W - 0.01, S - 0.01, E + 0.01, N + 0.01],
  )
  const plan = async (name: string, level: string, decision: string, approved: string) =>
    (
      await db.query<{ id: string }>(
        `insert into plans (dataset_id, name, level, decision_no, approved_at) values ($1, $2, $3, $4, $5) returning id::text as id`,
        [DATASET, name, level, decision, approved],
      )
    )[0]!.id
  const zone = (
    planId: string,
    code: string,
    density: number | null,
    floors: number | null,
    far: number | null,
    geom: string,
  ) =>
    db.query(
      `insert into planning_zones (dataset_id, plan_id, land_use_code, max_density_pct, max_floors, max_far, geom) values ($1, $2::bigint, $3, $4, $5, $6, ${geom})`,
      [DATASET, planId, code, density, floors, far],
    )
  const reserve = (planId: string, road: string, width: number, geom: string) =>
    db.query(
      `insert into road_reserves (dataset_id, plan_id, road_name, width_m, geom) values ($1, $2::bigint, $3, $4, ${geom})`,
      [DATASET, planId, road, width],
    )
  ids.qhc = await plan('Quy hoạch chung đô thị thử nghiệm', 'QHC', '10/QĐ-TTg', '2016-01-01')
  ids.old = await plan('Phân khu thử nghiệm', 'QHPK 1/2000', '20/QĐ-UBND', '2018-04-02')
  ids.new = await plan('Phân khu thử nghiệm', 'QHPK 1/2000', '21/QĐ-UBND', '2024-05-01')
  await zone(ids.qhc, 'ODT', null, null, null, env(W - 0.005, S - 0.005, E + 0.005, N + 0.005))
  await zone(ids.old, 'ODT', 80, 5, 3, env(W, S, E, N))
  await zone(ids.new, 'ODT', 70, 7, 4.2, env(W, S, MID, N))
  await zone(ids.new, 'DGT', null, null, null, env(MID, S, E, N))
  await reserve(ids.old, 'Đường A', 10, env(W, S, E, S + DLAT10))
  await reserve(ids.new, 'Đường A', 20, env(W, S, E, S + 2 * DLAT10))
  await reserve(ids.new, 'Đường B', 10, env(E - DLNG10, S, E, N))
  await db.query(
    `insert into parcels (dataset_id, province, ward, sheet_no, parcel_no, area_m2, geom) values ($1, 'Tỉnh Quảng Ngãi', 'Phường Thử', 3, 45, 120, ${env(MID + 0.0004, S + 0.0004, MID + 0.0005, S + 0.0005)})`,
    [DATASET],
  )
})

afterAll(async () => {
  await db.query('delete from datasets where id = $1', [DATASET])
})

const compare = async (query: string, token = user.token) => t.request(`/api/plans/compare?${query}`, { token })
const usage = async () => (await t.request('/api/auth/usage', { token: user.token })).body.data.count as number
const bbox = `bbox=${W},${S},${E},${N}`

async function comparedArea(query: string): Promise<CompareData> {
  const res = await compare(query)
  expect(res.status).toBe(200)
  return compareData.parse(res.body.data)
}

describe('GET /api/plans/compare over an area', () => {
  it('lists every plan there, governing order, the older zoning plan marked as replaced by the newer', async () => {
    const data = await comparedArea(bbox)
    expect(data.region).toMatchObject({ kind: 'area', parcel: null })
    expect(data.plans.map((p) => [p.plan_level, p.decision_no, p.replaced_by?.decision_no ?? null])).toEqual([
      ['QHPK 1/2000', '21/QĐ-UBND', null],
      ['QHPK 1/2000', '20/QĐ-UBND', '21/QĐ-UBND'],
      ['QHC', '10/QĐ-TTg', null],
    ])
    // Each plan covers the whole box.
    for (const p of data.plans) expect(p.area_m2).toBeCloseTo(data.region.area_m2, 0)
  })

  it('compares the two zoning plans by default, older to newer, with the area of each change in m²', async () => {
    const data = await comparedArea(bbox)
    expect([data.from, data.to]).toEqual([ids.old, ids.new])
    const west = await areaOf(`ST_MakeEnvelope(${W}, ${S}, ${MID}, ${N}, 4326)`)
    const east = await areaOf(`ST_MakeEnvelope(${MID}, ${S}, ${E}, ${N}, 4326)`)
    const changes = data.comparison!.changes.map((c) => [c.field, c.from, c.to, c.area_m2])
    expect(changes).toHaveLength(7)
    const expected: [string, string | number | null, string | number | null, number][] = [
      ['land_use', 'ODT', 'DGT', east],
      ['max_density_pct', 80, 70, west],
      ['max_density_pct', 80, null, east],
      ['max_floors', 5, 7, west],
      ['max_floors', 5, null, east],
      ['max_far', 3, 4.2, west],
      ['max_far', 3, null, east],
    ]
    for (const [field, from, to, area] of expected) {
      const found = data.comparison!.changes.find((c) => c.field === field && c.from === from && c.to === to)
      expect(found, `${field} ${from} → ${to}`).toBeDefined()
      expect(Math.abs(found!.area_m2 - area)).toBeLessThan(0.2)
      expect(found!.geometry.type).toMatch(/Polygon$/)
    }
    expect(data.comparison!.changes.find((c) => c.field === 'land_use')).toMatchObject({
      from_name: expect.any(String),
      to_name: expect.any(String),
    })
    expect(data.comparison!.unchanged_m2).toBe(0)
    expect(data.comparison!.only_from_m2).toBe(0)
    expect(data.comparison!.only_to_m2).toBe(0)
    expect(data.comparison!.pieces.from.map((p) => p.land_use_code)).toEqual(['ODT'])
    expect(data.comparison!.pieces.to.map((p) => p.land_use_code).sort()).toEqual(['DGT', 'ODT'])
  })

  it('gives each road reserve its width in both plans and the land it newly takes', async () => {
    const data = await comparedArea(bbox)
    const a = data.comparison!.road_reserves.find((r) => r.road_name === 'Đường A')!
    const b = data.comparison!.road_reserves.find((r) => r.road_name === 'Đường B')!
    expect([a.from_width_m, a.to_width_m, b.from_width_m, b.to_width_m]).toEqual([10, 20, null, 10])
    const widened = await areaOf(`ST_MakeEnvelope(${W}, ${S + DLAT10}, ${E}, ${S + 2 * DLAT10}, 4326)`)
    const newRoad = await areaOf(`ST_MakeEnvelope(${E - DLNG10}, ${S + DLAT10}, ${E}, ${N}, 4326)`)
    // Each road's own reserve against every reserve of the older plan: Đường B's strip starts where
    // Đường A's old reserve ends (the corner where the two new reserves cross counts for both roads).
    expect(Math.abs(a.added_m2 - widened)).toBeLessThan(0.2)
    expect(Math.abs(b.added_m2 - newRoad)).toBeLessThan(0.2)
    expect([a.removed_m2, b.removed_m2]).toEqual([0, 0])
  })

  it('compares the two plans asked for, of any levels, and the other way round', async () => {
    const data = await comparedArea(`${bbox}&from=${ids.qhc}&to=${ids.new}`)
    expect([data.from, data.to]).toEqual([ids.qhc, ids.new])
    expect(data.comparison!.changes.filter((c) => c.field === 'land_use').map((c) => [c.from, c.to])).toEqual([
      ['ODT', 'DGT'],
    ])
    const back = await comparedArea(`${bbox}&from=${ids.new}&to=${ids.old}`)
    expect(back.comparison!.changes.find((c) => c.field === 'land_use')).toMatchObject({ from: 'DGT', to: 'ODT' })
  })

  it('counts the area only one plan covers apart from the changes', async () => {
    // A box twice as wide: the zoning plans cover its west half only, the general plan all of it.
    const data = await comparedArea(`bbox=${W},${S},${E + 0.002},${N}&from=${ids.qhc}&to=${ids.new}`)
    const east = await areaOf(`ST_MakeEnvelope(${E}, ${S}, ${E + 0.002}, ${N}, 4326)`)
    expect(Math.abs(data.comparison!.only_from_m2 - east)).toBeLessThan(0.5)
    expect(data.comparison!.only_to_m2).toBe(0)
  })

  it('counts as one lookup, the usage in the answer', async () => {
    const before = await usage()
    const res = await compare(bbox)
    expect(res.status).toBe(200)
    expect(res.body.meta.usage).toEqual({ count: before + 1, limit: 1000 })
    expect(await usage()).toBe(before + 1)
  })

  it('answers MaxUsage once the day’s lookups are used up, and counts nothing it refuses or does not find', async () => {
    const limited = await createTestApp({ DAILY_LOOKUP_LIMIT: '1' })
    const someone = await createTestUser(limited)
    const ask = (query: string) => limited.request(`/api/plans/compare?${query}`, { token: someone.token })
    expect((await ask('bbox=108.5,15.0,108.6,15.1')).status).toBe(400)
    expect((await ask(`lat=${S + 0.0008}&lng=${W + 0.0002}`)).status).toBe(404)
    expect((await ask(`${bbox}&from=${ids.old}&to=987654321`)).status).toBe(404)
    expect((await ask(bbox)).status).toBe(200)
    const spent = await ask(bbox)
    expect([spent.status, spent.body.meta.code]).toEqual([429, 'MaxUsage'])
    expect(spent.body.meta.usage).toEqual({ count: 1, limit: 1 })
    expect(spent.body.data).toBeNull()
  })
})

describe('GET /api/plans/compare for a parcel', () => {
  it('compares within the parcel at the point: only what changed on its land', async () => {
    const data = await comparedArea(`lat=${S + 0.00045}&lng=${MID + 0.00045}`)
    expect(data.region).toMatchObject({ kind: 'parcel', parcel: { sheet_no: 3, parcel_no: 45 } })
    const landUse = data.comparison!.changes.filter((c) => c.field === 'land_use')
    expect(landUse.map((c) => [c.from, c.to])).toEqual([['ODT', 'DGT']])
    const parcelArea = await areaOf(
      `ST_MakeEnvelope(${MID + 0.0004}, ${S + 0.0004}, ${MID + 0.0005}, ${S + 0.0005}, 4326)`,
    )
    expect(Math.abs(landUse[0]!.area_m2 - parcelArea)).toBeLessThan(0.2)
    // The parcel lies clear of both reserves.
    expect(data.comparison!.road_reserves).toEqual([])
  })

  it('answers NotFound where no parcel is, pointing to the area comparison', async () => {
    const res = await compare(`lat=${S + 0.0008}&lng=${W + 0.0002}`)
    expect(res.status).toBe(404)
    expect(res.body.meta.code).toBe('NotFound')
    expect(res.body.message).toMatch(/khu vực/)
  })
})

describe('GET /api/plans/compare refuses what it cannot answer', () => {
  it('asks for a token', async () => {
    const res = await t.request(`/api/plans/compare?${bbox}`)
    expect(res.status).toBe(401)
    expect(res.body.meta.code).toBe('Unauthorized')
  })

  it('names the bad field: neither place, both places, one plan, the same plan twice, a malformed box', async () => {
    const cases: [string, string][] = [
      ['', 'bbox'],
      [`${bbox}&lat=15.1&lng=108.8`, 'bbox'],
      [`${bbox}&from=${ids.old}`, 'to'],
      [`${bbox}&from=${ids.old}&to=${ids.old}`, 'to'],
      ['bbox=1,2,3', 'bbox'],
      [`${bbox}&from=abc&to=1`, 'from'],
    ]
    for (const [query, field] of cases) {
      const res = await compare(query)
      expect(res.status, query).toBe(400)
      expect(res.body.meta.code).toBe('BadRequest')
      expect(Object.keys(res.body.errors), query).toContain(field)
    }
  })

  it('refuses an area wider than the limit, saying to zoom in', async () => {
    const res = await compare('bbox=108.5,15.0,108.6,15.1')
    expect(res.status).toBe(400)
    expect(res.body.message).toMatch(/phóng to/)
  })

  it('refuses a box across the antimeridian, one 180° wide and one outside Việt Nam with 400 naming bbox', async () => {
    // Measured on the geography the first is a 2.8 km² sliver, while the envelope queried is the whole world.
    for (const box of ['-179.9999999,15.1,179.9999999,15.101', '-90,15.1,90,15.101', '2.35,48.85,2.36,48.86']) {
      const res = await compare(`bbox=${box}`)
      expect(res.status, box).toBe(400)
      expect(res.body.meta.code).toBe('BadRequest')
      expect(Object.keys(res.body.errors), box).toEqual(['bbox'])
    }
  })

  it('measures the area of the very box it compares', async () => {
    const data = await comparedArea(bbox)
    const planar = await areaOf(`ST_Segmentize(ST_MakeEnvelope(${W}, ${S}, ${E}, ${N}, 4326), 0.0001)`)
    expect(Math.abs(data.region.area_m2 - planar) / planar).toBeLessThan(0.001)
    const ring = (data.region.geometry.coordinates as [number, number][][])[0]!
    expect(new Set(ring.map((p) => p.join()))).toEqual(new Set([`${W},${S}`, `${E},${S}`, `${E},${N}`, `${W},${N}`]))
  })

  it('refuses a place whose plans hold more vertices than one comparison may clip, before clipping any', async () => {
    // One zone drawn with a vertex every few millimetres: more detail than any screen shows.
    const [dense] = await db.query<{ id: string; n: number }>(
      `insert into planning_zones (dataset_id, plan_id, land_use_code, geom)
       values ($1, $2::bigint, 'ODT', ST_Multi(ST_Segmentize(ST_MakeEnvelope($3, $4, $5, $6, 4326), $7)))
       returning id::text as id, ST_NPoints(geom) as n`,
      [DATASET, ids.new, W, S, MID, N, (2 * (MID - W + N - S)) / (MAX_COMPARE_VERTICES + 10_000)],
    )
    try {
      expect(dense!.n).toBeGreaterThan(MAX_COMPARE_VERTICES)
      const res = await compare(bbox)
      expect(res.status).toBe(400)
      expect(Object.keys(res.body.errors)).toEqual(['bbox'])
      expect(res.body.message).toMatch(/phóng to/)
    } finally {
      await db.query('delete from planning_zones where id = $1::bigint', [dense!.id])
    }
  })

  it('answers NotFound for a plan that does not exist', async () => {
    const res = await compare(`${bbox}&from=${ids.old}&to=987654321`)
    expect(res.status).toBe(404)
    expect(res.body.message).toContain('987654321')
  })

  it('has no comparison where each level has one version only', async () => {
    const data = await comparedArea(`bbox=${E + 0.001},${S},${E + 0.002},${N}`)
    expect(data.plans.map((p) => p.plan_level)).toEqual(['QHC'])
    expect([data.from, data.to, data.comparison]).toEqual([null, null, null])
  })
})

describe('plan versions in the demo', () => {
  it('keeps the 2017 zoning plan under the 2023 one: the lookup lists it as replaced, and the comparison shows the new school', async () => {
    const demo = await demoLoaded()
    const [spot] = await demo.query<{ lat: number; lng: number }>(
      `select ST_Y(ST_PointOnSurface(p.geom))::float8 as lat, ST_X(ST_PointOnSurface(p.geom))::float8 as lng
       from parcels p join planning_zones z on ST_Covers(z.geom, ST_PointOnSurface(p.geom)) join plans pl on pl.id = z.plan_id
       where p.dataset_id = 'demo' and pl.decision_no = '1234/QĐ-UBND' and z.land_use_code = 'DGD'
         and not exists (select 1 from planning_zones q join plans ql on ql.id = q.plan_id where ql.level = 'QHCT 1/500' and ST_Covers(q.geom, ST_PointOnSurface(p.geom)))
       order by p.id limit 1`,
    )
    expect(spot).toBeDefined()
    const res = await t.request(`/api/planning?lat=${spot!.lat}&lng=${spot!.lng}`, { token: user.token })
    const planning = planningData.parse(res.body.data)
    expect(
      planning.zones.map((z) => [z.decision_no, z.land_use_code, z.governing, z.replaced_by?.decision_no ?? null]),
    ).toEqual([
      ['1234/QĐ-UBND', 'DGD', true, null],
      ['2468/QĐ-UBND', 'ODT', false, '1234/QĐ-UBND'],
    ])
    const data = await comparedArea(`lat=${spot!.lat}&lng=${spot!.lng}`)
    expect(data.plans.map((p) => p.decision_no)).toEqual(['1234/QĐ-UBND', '2468/QĐ-UBND'])
    expect(data.comparison!.changes.find((c) => c.field === 'land_use')).toMatchObject({ from: 'ODT', to: 'DGD' })
  })
})
