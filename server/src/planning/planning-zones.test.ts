import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { planningData } from '#core/contract/lookups.ts'
import { createTestUser, type TestUser } from '../accounts/test-user.ts'
import { createTestApp, type TestApp } from '../testing/test-app.ts'

/*
 * Plans published without a cadastre, in Đà Nẵng (far from the demo ward): a general plan (QHC) over
 * everything, two zoning plans (QHPK 1/2000) of different years over the west square, a detailed plan
 * (QHCT 1/500) over its south-west quarter, and a parcel in the north-east corner only.
 */
const DATASET = `zones-only-${Date.now().toString(36)}${Math.random().toString(36).slice(2, 6)}`
const box = (w: number, s: number, e: number, n: number) => `ST_Multi(ST_MakeEnvelope(${w}, ${s}, ${e}, ${n}, 4326))`

let t: TestApp
let user: TestUser

beforeAll(async () => {
  t = await createTestApp({ DAILY_LOOKUP_LIMIT: '1000' })
  user = await createTestUser(t)
  const db = t.db
  await db.query(
    `insert into datasets (id, kind, name, source, data_date, crs, bounds)
     values ($1, 'planning', 'Quy hoạch thử nghiệm', 'Sở Xây dựng (thử nghiệm)', '2025-01-01', 'vn2000:107.75', ST_MakeEnvelope(108.20, 16.05, 108.22, 16.07, 4326))`,
    [DATASET],
  )
  const plan = async (name: string, level: string, decision: string, approved: string) =>
    (
      await db.query<{ id: string }>(
        `insert into plans (dataset_id, name, level, decision_no, approved_at) values ($1, $2, $3, $4, $5) returning id::text as id`,
        [DATASET, name, level, decision, approved],
      )
    )[0]!.id
  const zone = (planId: string, code: string, geom: string) =>
    db.query(
      `insert into planning_zones (dataset_id, plan_id, land_use_code, max_floors, geom) values ($1, $2::bigint, $3, 5, ${geom})`,
      [DATASET, planId, code],
    )
  const qhc = await plan('Quy hoạch chung thành phố', 'QHC', '100/QĐ-TTg', '2024-06-01')
  const qhpkOld = await plan('Phân khu cũ', 'QHPK 1/2000', '200/QĐ-UBND', '2019-03-01')
  const qhpkNew = await plan('Phân khu điều chỉnh', 'QHPK 1/2000', '201/QĐ-UBND', '2023-03-01')
  const qhct = await plan('Chi tiết khu trung tâm', 'QHCT 1/500', '300/QĐ-UBND', '2020-01-01')
  await zone(qhc, 'ODT', box(108.2, 16.05, 108.22, 16.07))
  await zone(qhpkOld, 'TMD', box(108.2, 16.05, 108.21, 16.07))
  await zone(qhpkNew, 'ODT', box(108.2, 16.05, 108.21, 16.07))
  // Two zones of the detailed plan meet at lat 16.054: a point on that edge lies in both.
  await zone(qhct, 'ODT', box(108.2, 16.05, 108.205, 16.054))
  await zone(qhct, 'DKV', box(108.2, 16.054, 108.205, 16.058))
  await db.query(
    `insert into parcels (dataset_id, province, ward, sheet_no, parcel_no, area_m2, geom) values ($1, 'Thành phố Đà Nẵng', 'Phường Hải Châu', 7, 12, 100, ${box(108.215, 16.065, 108.2151, 16.0651)})`,
    [DATASET],
  )
})

afterAll(async () => {
  await t.db.query('delete from datasets where id = $1', [DATASET])
})

const usage = async () => (await t.request('/api/auth/usage', { token: user.token })).body.data.count as number
const lookup = (lat: number, lng: number) => t.request(`/api/planning?lat=${lat}&lng=${lng}`, { token: user.token })

describe('GET /api/planning where plans exist without a cadastre', () => {
  it('answers Ok with parcel null and the zones, the detailed plan governing, and counts the lookup', async () => {
    const before = await usage()
    const res = await lookup(16.052, 108.202)
    expect(res.status).toBe(200)
    const data = planningData.parse(res.body.data)
    expect(data.parcel).toBeNull()
    expect(data.road_reserves).toEqual([])
    expect(data.zones.map((z) => [z.plan_level, z.decision_no, z.governing])).toEqual([
      ['QHCT 1/500', '300/QĐ-UBND', true],
      ['QHPK 1/2000', '201/QĐ-UBND', false],
      ['QHPK 1/2000', '200/QĐ-UBND', false],
      ['QHC', '100/QĐ-TTg', false],
    ])
    expect(data.source).toEqual({ dataset: DATASET, name: 'Quy hoạch thử nghiệm', data_date: '2025-01-01' })
    expect(data.location.vn2000.zone_meridian).toBe(107.75)
    expect(res.body.meta.usage.count).toBe(before + 1)
  })

  it('lets the newest zoning plan govern where no detailed plan reaches', async () => {
    const data = planningData.parse((await lookup(16.066, 108.202)).body.data)
    expect(data.zones.map((z) => [z.decision_no, z.governing])).toEqual([
      ['201/QĐ-UBND', true],
      ['200/QĐ-UBND', false],
      ['100/QĐ-TTg', false],
    ])
  })

  it('marks every zone of the governing plan when the point lies on the edge between two of them', async () => {
    const data = planningData.parse((await lookup(16.054, 108.202)).body.data)
    const governing = data.zones.filter((z) => z.governing)
    expect(governing.map((z) => z.land_use_code).sort()).toEqual(['DKV', 'ODT'])
    expect(data.zones.slice(0, 2).every((z) => z.governing)).toBe(true)
  })

  it('still answers the parcel with its zones where a parcel lies within 2 m', async () => {
    const data = planningData.parse((await lookup(16.06505, 108.21505)).body.data)
    expect(data.parcel).toMatchObject({ sheet_no: 7, parcel_no: 12 })
    expect(data.zones.map((z) => [z.plan_level, z.governing])).toEqual([['QHC', true]])
  })

  it('answers NotFound, not counted, inside the data where neither a parcel nor a zone is', async () => {
    await t.db.query(`update datasets set bounds = ST_MakeEnvelope(108.20, 16.05, 108.23, 16.07, 4326) where id = $1`, [
      DATASET,
    ])
    const before = await usage()
    const res = await lookup(16.06, 108.225)
    expect(res.status).toBe(404)
    expect(res.body.meta.code).toBe('NotFound')
    expect(await usage()).toBe(before)
  })
})
