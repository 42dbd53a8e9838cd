import { beforeAll, describe, expect, it } from 'vitest'
import type { Database, Queryable } from '../db/index.ts'
import { createLogger } from '../logger.ts'
import { demoLoaded } from '../testing/demo.ts'
import { ensureDemoData } from './ensure.ts'

/** A Database over one open transaction, so a test can empty the tables and have it all rolled back. */
function insideTransaction(tx: Queryable, kind: Database['kind']): Database {
  return {
    kind,
    query: tx.query,
    exec: tx.exec,
    transaction: (fn) => fn(tx),
    ping: async () => {},
    listen: async () => {},
    close: async () => {},
  }
}

class Rollback extends Error {}

describe('ensureDemoData', () => {
  beforeAll(() => demoLoaded())

  it('leaves the database alone when it already has a dataset', async () => {
    const db = await demoLoaded()
    const before = await db.query<{ n: number; v: number }>(
      'select (select count(*)::int from parcels) as n, (select version::int from data_version) as v',
    )
    await ensureDemoData(db, createLogger('silent'))
    expect(
      await db.query('select (select count(*)::int from parcels) as n, (select version::int from data_version) as v'),
    ).toEqual(before)
  })

  it('loads the demo dataset on first start, when there is no dataset at all', { timeout: 300_000 }, async () => {
    const db = await demoLoaded()
    const lines: string[] = []
    let seen: { parcels: number; datasets: number } | undefined
    await db
      .transaction(async (tx) => {
        await tx.query('delete from datasets')
        await ensureDemoData(
          insideTransaction(tx, db.kind),
          createLogger('info', (l) => lines.push(l)),
        )
        ;[seen] = await tx.query<{ parcels: number; datasets: number }>(
          `select (select count(*)::int from parcels) as parcels, (select count(*)::int from datasets) as datasets`,
        )
        throw new Rollback()
      })
      .catch((err: unknown) => {
        if (!(err instanceof Rollback)) throw err
      })
    expect(seen?.datasets).toBe(1)
    expect(seen?.parcels).toBeGreaterThanOrEqual(20_000)
    expect(lines.some((l) => l.includes('demo dataset loaded'))).toBe(true)
  })
})
