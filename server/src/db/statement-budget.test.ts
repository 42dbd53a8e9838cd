import { beforeAll, describe, expect, it } from 'vitest'
import { createTestUser } from '../accounts/test-user.ts'
import { demoLoaded } from '../testing/demo.ts'
import { createTestApp, type TestApp } from '../testing/test-app.ts'
import type { Database } from './database.ts'
import { openPostgres } from './postgres.ts'

/*
 * Every statement has a time budget and ends with its request: one request must never hold the server.
 * The database is held here the way other work holds it: on PostgreSQL a transaction that locks the daily
 * counts (a counted lookup's statement waits on that lock), on the embedded database an open transaction
 * (its one connection busy, every other statement waiting its turn).
 */
const url = process.env.DATABASE_URL

let t: TestApp
let spot: { lat: number; lng: number }

beforeAll(async () => {
  const demo = await demoLoaded()
  t = await createTestApp({ DAILY_LOOKUP_LIMIT: '1000' })
  const [row] = await demo.query<{ lat: number; lng: number }>(
    `select ST_Y(ST_PointOnSurface(geom))::float8 as lat, ST_X(ST_PointOnSurface(geom))::float8 as lng
     from parcels where dataset_id = 'demo' order by id limit 1`,
  )
  spot = row!
})

/** Holds `db` until the returned function is called (which resolves once it has let go). */
async function hold(db: Database): Promise<() => Promise<void>> {
  let release!: () => void
  const released = new Promise<void>((r) => (release = r))
  let held!: () => void
  const holding = new Promise<void>((r) => (held = r))
  const done = db.transaction(async (tx) => {
    if (db.kind === 'postgres') await tx.query('lock table usage_daily in access exclusive mode')
    held()
    await released
  })
  await holding
  return async () => {
    release()
    await done
  }
}

/** Statements waiting for the lock on the daily counts (PostgreSQL). */
const waitingOnCounts = async () =>
  (
    await t.db.query<{ n: number }>(
      `select count(*)::int as n from pg_locks where not granted and relation = 'usage_daily'::regclass`,
    )
  )[0]!.n

const countedToday = async (userId: string) =>
  (
    await t.db.query<{ n: number }>('select coalesce(sum(count), 0)::int as n from usage_daily where user_id = $1', [
      userId,
    ])
  )[0]!.n

const lookup = (app: TestApp, token: string, signal?: AbortSignal) =>
  app.app.request(`/api/planning?lat=${spot.lat}&lng=${spot.lng}`, {
    headers: { authorization: `Bearer ${token}` },
    signal,
  })

describe('a request whose client goes away', () => {
  it('has its waiting lookup cancelled: not run to its end, not counted', async () => {
    const user = await createTestUser(t)
    const client = new AbortController()
    const release = await hold(t.db)
    let answer: Response | Promise<Response> | undefined
    try {
      answer = lookup(t, user.token, client.signal)
      if (t.db.kind === 'postgres') await expect.poll(waitingOnCounts, { timeout: 10_000 }).toBe(1)
      client.abort()
      // Cancelled in PostgreSQL while the lock is still held, not merely left to fail later.
      if (t.db.kind === 'postgres') await expect.poll(waitingOnCounts, { timeout: 10_000 }).toBe(0)
    } finally {
      await release()
    }
    expect((await answer!).status).toBe(503)
    expect(await countedToday(user.id)).toBe(0)
  })
})

describe.skipIf(url)('the statement budget on the embedded database', () => {
  it('refuses a statement that spent its whole budget waiting behind another, with 503 and nothing counted', async () => {
    const app = await createTestApp({ DAILY_LOOKUP_LIMIT: '1000', STATEMENT_TIMEOUT_SECONDS: '0.2' })
    const user = await createTestUser(app)
    const release = await hold(app.db)
    const answer = lookup(app, user.token)
    // Past the budget while the embedded database is busy: the statement's time is up before it starts.
    await new Promise((r) => setTimeout(r, 400))
    await release()
    const res = await answer
    expect(res.status).toBe(503)
    expect(res.headers.get('retry-after')).toBe('5')
    expect(await countedToday(user.id)).toBe(0)
  })
})

describe.skipIf(!url)('the statement timeout on PostgreSQL', () => {
  it('has PostgreSQL cancel a statement past STATEMENT_TIMEOUT_SECONDS, answered 503 with nothing counted', async () => {
    const db = await openPostgres(url!, { statementTimeoutMs: 300 })
    try {
      const app = await createTestApp({ DAILY_LOOKUP_LIMIT: '1000', STATEMENT_TIMEOUT_SECONDS: '0.3' }, db)
      const user = await createTestUser(app)
      const release = await hold(t.db)
      // Only so the old behaviour ends at all: a statement without a timeout waits for the lock forever.
      const failsafe = setTimeout(() => void release(), 15_000)
      const res = await lookup(app, user.token)
      clearTimeout(failsafe)
      await release()
      expect(res.status).toBe(503)
      expect(res.headers.get('retry-after')).toBe('5')
      expect(await countedToday(user.id)).toBe(0)
    } finally {
      await db.close()
    }
  })
})
