import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { MAX_ANSWER_VERTICES } from '#core/limits.ts'
import { createTestUser, type TestUser } from '../accounts/test-user.ts'
import { createTestApp, type TestApp } from '../testing/test-app.ts'

/*
 * Shapes stored with far more detail than a screen shows (written straight into the database, as data
 * imported before the vertex budgets may be): in Huế, far from the other tests' data, inside an older
 * zoning plan's zone, a newer plan's round zone of 3,201 vertices and in it a parcel of 2,500 vertices,
 * beside an ordinary parcel of 5.
 */
const DATASET = `dense-${Date.now().toString(36)}${Math.random().toString(36).slice(2, 6)}`
const [W, S, E, N] = [107.58, 16.46, 107.582, 16.461]
const [CX, CY, R] = [(W + E) / 2, (S + N) / 2, 0.0004]
const dense = (w: number, s: number, e: number, n: number, vertices: number) =>
  `ST_Multi(ST_Segmentize(ST_MakeEnvelope(${w}, ${s}, ${e}, ${n}, 4326), ${(2 * (e - w + n - s)) / vertices}))`
const round = `ST_Multi(ST_Buffer(ST_SetSRID(ST_MakePoint(${CX}, ${CY}), 4326), ${R}, 800))`

let t: TestApp
let user: TestUser

beforeAll(async () => {
  t = await createTestApp({ DAILY_LOOKUP_LIMIT: '1000' })
  user = await createTestUser(t)
  const db = t.db
  await db.query(
    `insert into datasets (id, kind, name, source, data_date, crs, bounds)
     values ($1, 'planning', 'Quy hoạch chi tiết dày đỉnh', 'Kiểm thử', '2025-01-01', 'vn2000:107', ST_MakeEnvelope($2, $3, $4, $5, 4326))`,
    [DATASET, W - 0.01, S - 0.01, E + 0.01, N + 0.01],
  )
  const plan = async (name: string, decision: string, approved: string) =>
    (
      await db.query<{ id: string }>(
        `insert into plans (dataset_id, name, level, decision_no, approved_at) values ($1, $2, 'QHPK 1/2000', $3, $4) returning id::text as id`,
        [DATASET, name, decision, approved],
      )
    )[0]!.id
  const older = await plan('Phân khu cũ', '1/QĐ-UBND', '2015-01-01')
  const newer = await plan('Phân khu mới', '2/QĐ-UBND', '2024-01-01')
  await db.query(
    `insert into planning_zones (dataset_id, plan_id, land_use_code, geom) values ($1, $2::bigint, 'ODT', ST_Multi(ST_MakeEnvelope($3, $4, $5, $6, 4326))),
       ($1, $7::bigint, 'TMD', ${round})`,
    [DATASET, older, W, S, E, N, newer],
  )
  await db.query(
    `insert into parcels (dataset_id, province, ward, sheet_no, parcel_no, area_m2, geom) values
       ($1, 'Thành phố Huế', 'Phường Thuận Hóa', 9, 1, 1000, ${dense(CX - 0.0002, CY - 0.0002, CX + 0.0002, CY + 0.0002, 2_500)}),
       ($1, 'Thành phố Huế', 'Phường Thuận Hóa', 9, 2, 100, ST_Multi(ST_MakeEnvelope(${E - 0.0004}, ${S + 0.0002}, ${E - 0.0003}, ${S + 0.0003}, 4326)))`,
    [DATASET],
  )
})

afterAll(async () => {
  await t.db.query('delete from datasets where id = $1', [DATASET])
})

type Geometry = { type: string; coordinates: unknown }
const vertices = (g: Geometry): number => {
  const count = (a: unknown): number =>
    typeof (a as unknown[])[0] === 'number' ? 1 : (a as unknown[]).reduce<number>((n, x) => n + count(x), 0)
  return count(g.coordinates)
}
const extent = (g: Geometry) => {
  const pts: number[][] = []
  const walk = (a: unknown) =>
    typeof (a as unknown[])[0] === 'number' ? pts.push(a as number[]) : (a as unknown[]).forEach(walk)
  walk(g.coordinates)
  return [0, 1].flatMap((i) => [Math.min(...pts.map((p) => p[i]!)), Math.max(...pts.map((p) => p[i]!))])
}

describe('geometry in answers', () => {
  it('simplifies a stored shape past the vertex cap to what a screen shows, keeping its extent, and leaves small ones exact', async () => {
    const res = await t.request(`/api/planning?lat=${CY}&lng=${CX}`, { token: user.token })
    expect(res.status).toBe(200)
    const { parcel, zones } = res.body.data as {
      parcel: { geometry: Geometry }
      zones: { land_use_code: string; geometry: Geometry }[]
    }
    const denseZone = zones.find((z) => z.land_use_code === 'TMD')!
    for (const g of [parcel.geometry, denseZone.geometry]) {
      expect(vertices(g)).toBeLessThanOrEqual(MAX_ANSWER_VERTICES)
      expect(vertices(g)).toBeGreaterThanOrEqual(5)
    }
    extent(denseZone.geometry).forEach((v, i) => expect(v).toBeCloseTo([CX - R, CX + R, CY - R, CY + R][i]!, 5))
    // The whole answer stays small: the two shapes hold 5,700 vertices as stored.
    expect(JSON.stringify(res.body).length).toBeLessThan(60_000)
    const plain = zones.find((z) => z.land_use_code === 'ODT')!
    expect(vertices(plain.geometry)).toBe(5)

    const small = await t.request(`/api/planning?lat=${S + 0.00025}&lng=${E - 0.00035}`, { token: user.token })
    expect(vertices(small.body.data.parcel.geometry)).toBe(5)
  })

  it('simplifies the shapes of a plan comparison the same way', async () => {
    const res = await t.request(`/api/plans/compare?bbox=${W},${S},${E},${N}`, { token: user.token })
    expect(res.status).toBe(200)
    const { comparison } = res.body.data as {
      comparison: {
        changes: { geometry: Geometry }[]
        pieces: { from: { geometry: Geometry }[]; to: { geometry: Geometry }[] }
      }
    }
    const shapes = [...comparison.changes, ...comparison.pieces.from, ...comparison.pieces.to].map((c) => c.geometry)
    expect(shapes.length).toBeGreaterThan(0)
    for (const g of shapes) expect(vertices(g)).toBeLessThanOrEqual(MAX_ANSWER_VERTICES)
    expect(JSON.stringify(res.body).length).toBeLessThan(60_000)
  })
})
