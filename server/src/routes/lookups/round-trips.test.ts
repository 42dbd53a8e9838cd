import { beforeAll, describe, expect, it } from 'vitest'
import { createTestUser, type TestUser } from '../../accounts/test-user.ts'
import type { QueryOptions } from '../../db/database.ts'
import type { Database, Queryable } from '../../db/index.ts'
import { demoLoaded } from '../../testing/demo.ts'
import { createTestApp, type TestApp } from '../../testing/test-app.ts'

/** The database with every statement the app sends through it counted (inside transactions too), and its options kept. */
function counting(db: Database): { db: Database; statements: () => number; options: QueryOptions[] } {
  let n = 0
  const options: QueryOptions[] = []
  const wrap = (q: Queryable): Queryable => ({
    query: (sql, params, opts) => {
      n++
      if (opts) options.push(opts)
      return q.query(sql, params, opts)
    },
    exec: (sql) => {
      n++
      return q.exec(sql)
    },
  })
  return {
    db: { ...db, ...wrap(db), transaction: (fn) => db.transaction((tx) => fn(wrap(tx))) },
    statements: () => n,
    options,
  }
}

let t: TestApp
let user: TestUser
let statements: () => number
let options: QueryOptions[]
let spot: { lat: number; lng: number }

beforeAll(async () => {
  const demo = await demoLoaded()
  const counted = counting(demo)
  statements = counted.statements
  options = counted.options
  t = await createTestApp({ DAILY_LOOKUP_LIMIT: '1000' }, counted.db)
  user = await createTestUser(t)
  const [row] = await demo.query<{ lat: number; lng: number }>(
    `select ST_Y(ST_PointOnSurface(p.geom))::float8 as lat, ST_X(ST_PointOnSurface(p.geom))::float8 as lng
     from parcels p join parcel_land_use u on u.parcel_id = p.id and u.code = 'ODT' where p.dataset_id = 'demo' order by p.id limit 1`,
  )
  if (!row) throw new Error('no demo parcel')
  spot = row
})

/** Statements the database ran while answering one request, and its status. */
async function measured(path: string, init: { json?: unknown } = {}): Promise<{ status: number; statements: number }> {
  const before = statements()
  const res = await t.request(path, { ...init, ...(init.json ? { method: 'POST' } : {}), token: user.token })
  return { status: res.status, statements: statements() - before }
}

/**
 * The token's own statement: on PostgreSQL every request checks it in the database (another process may
 * have revoked it), the embedded database's one process remembers it after the first check.
 */
const tokenCheck = () => (t.db.kind === 'postgres' ? 1 : 0)

describe('database round trips per counted lookup', () => {
  it('answers a counted planning lookup in one statement with its count, plus the token’s check', async () => {
    const first = await measured(`/api/planning?lat=${spot.lat}&lng=${spot.lng}`)
    expect(first).toEqual({ status: 200, statements: 2 })
    const again = await measured(`/api/planning?lat=${spot.lat}&lng=${spot.lng}`)
    expect(again).toEqual({ status: 200, statements: 1 + tokenCheck() })
  })

  it('asks for the planning statement to be planned once per connection, not again for every point', () => {
    expect(options).toContainEqual({ prepare: 'counted-planning', generic: true })
  })

  it('answers a planning lookup outside the data in one statement, without counting it', async () => {
    const res = await measured('/api/planning?lat=21.0&lng=105.8')
    expect(res).toEqual({ status: 400, statements: 1 + tokenCheck() })
    expect((await t.request('/api/auth/usage', { token: user.token })).body.data.count).toBe(2)
  })

  it('answers a counted valuation in two statements: the count with the parcel and its prices, then the sales', async () => {
    // The first valuation on a database fits the market's elasticities once (kept until an import).
    expect((await measured('/api/valuation', { json: spot })).status).toBe(200)
    expect(await measured('/api/valuation', { json: { ...spot, alley_width_m: 3 } })).toEqual({
      status: 200,
      statements: 2 + tokenCheck(),
    })
  })
})
