import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { tileX, tileY } from '#core/offline/tile-grid.ts'
import { createTestUser } from '../accounts/test-user.ts'
import { demoLoaded } from '../testing/demo.ts'
import { createTestApp } from '../testing/test-app.ts'
import type { Database, Queryable } from './database.ts'
import { openPostgres } from './postgres.ts'

// A streaming replica of DATABASE_URL (CI starts one on loopback and names it TEST_DATABASE_READ_URL, .ci/run):
// the app's search and tiles read from it as they do with DATABASE_READ_URL.
const readUrl = process.env.TEST_DATABASE_READ_URL
const onReplica = process.env.DATABASE_URL && readUrl ? describe : describe.skip

/** The statements sent through a handle, each recorded as it is sent. */
function recording<T extends Queryable>(inner: T): { handle: T; sent: string[] } {
  const sent: string[] = []
  const handle = Object.create(inner) as T
  handle.query = (sql, params, opts) => {
    sent.push(sql)
    return inner.query(sql, params, opts)
  }
  return { handle, sent }
}

/** Waits until the replica has replayed what the primary had written when this was called. */
async function caughtUp(primary: Queryable, replica: Queryable): Promise<void> {
  const [at] = await primary.query<{ lsn: string }>('select pg_current_wal_lsn()::text as lsn')
  await expect
    .poll(
      async () =>
        (await replica.query<{ done: boolean }>('select pg_last_wal_replay_lsn() >= $1::pg_lsn as done', [at!.lsn]))[0]
          ?.done,
      { timeout: 30_000 },
    )
    .toBe(true)
}

onReplica('a read replica (DATABASE_READ_URL)', () => {
  let replica: Database
  let primary: Database
  beforeAll(async () => {
    primary = await demoLoaded()
    replica = await openPostgres(readUrl!)
  })
  afterAll(async () => {
    await primary?.query("delete from datasets where id = 'replica-test'")
    await replica?.close()
  })

  it('answers search and map tiles from the replica, and counted lookups and writes from the primary', async () => {
    expect(await replica.query('select pg_is_in_recovery() as standby')).toEqual([{ standby: true }])
    // A street written on the primary, as an import would: found once the replica has replayed it.
    await primary.query(
      `insert into datasets (id, kind, name, source, data_date, crs) values ('replica-test', 'roads', 'Thử', 'Thử', '2024-06-01', 'EPSG:4326')`,
    )
    await primary.query(
      `insert into streets (dataset_id, name, class, width_m, province, ward, geom)
       values ('replica-test', 'Đường Bản Sao Đọc', 'street', 8, 'Thành phố Huế', 'Phường Thử',
         ST_SetSRID(ST_MakeLine(ST_Point(107.58, 16.46), ST_Point(107.581, 16.46)), 4326))`,
    )
    await caughtUp(primary, replica)

    const writes = recording(primary)
    const reads = recording(replica)
    const t = await createTestApp({}, writes.handle, reads.handle)
    const user = await createTestUser(t)
    const clear = () => {
      writes.sent.length = 0
      reads.sent.length = 0
    }

    clear()
    const search = await t.request('/api/search?q=ban sao doc&limit=5', { token: user.token })
    expect(search.status).toBe(200)
    expect(search.body.data[0]?.label).toMatch(/Đường Bản Sao Đọc/)
    expect(reads.sent.length).toBeGreaterThan(0)
    // The primary only checked the token (and remembers it: nothing at all the second time).
    expect(writes.sent.filter((s) => /street|admin_units|parcels/.test(s))).toEqual([])

    clear()
    const [x, y] = [Math.floor(tileX(106.7, 17)), Math.floor(tileY(10.797, 17))]
    const tile = await t.request(`/tiles/parcels/17/${x}/${y}.pbf`)
    expect(tile.status).toBe(200)
    expect(reads.sent.some((s) => /from parcels|tile_store/.test(s))).toBe(true)
    // A tile not stored yet is rendered from the replica's rows and stored through the primary.
    expect(writes.sent.every((s) => /insert into tile_store/.test(s))).toBe(true)

    clear()
    const planning = await t.request('/api/planning?lat=10.797&lng=106.7', { token: user.token })
    expect(planning.status).toBe(200)
    expect(writes.sent.length).toBeGreaterThan(0)
    expect(reads.sent).toEqual([])
  })
})
