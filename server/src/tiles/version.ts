import type { Database, Queryable } from '../db/database.ts'
import type { Logger } from '../logger.ts'

/** Announced with the new version when a transaction that bumps the data version commits. */
export const DATA_VERSION_CHANNEL = 'data_version'

/** The data version tile ETags and caches key on. */
export async function readDataVersion(db: Queryable): Promise<number> {
  const rows = await db.query<{ version: number }>('select version::float8 as version from data_version')
  return rows[0]?.version ?? 0
}

/**
 * Call inside the transaction that changes geodata (import, seed): every tile ETag changes with it,
 * and on commit every server process watching DATA_VERSION_CHANNEL drops its tile cache at once.
 * Returns the new version.
 */
export async function bumpDataVersion(tx: Queryable): Promise<number> {
  const rows = await tx.query<{ version: number }>(
    `with v as (update data_version set version = version + 1 returning version)
     select version::float8 as version, pg_notify('${DATA_VERSION_CHANNEL}', version::text) from v`,
  )
  const version = rows[0]?.version
  if (version === undefined) throw new Error('data_version has no row')
  return version
}

type Watch = { live: boolean; subscribers: Set<() => void> }
const watches = new WeakMap<object, Watch>()

function watchOf(db: object): Watch {
  let w = watches.get(db)
  if (!w) {
    w = { live: false, subscribers: new Set() }
    watches.set(db, w)
  }
  return w
}

/**
 * The data version as seen by the caches of one database handle: `live` while this process hears every
 * bump (PostgreSQL LISTEN), `subscribe` runs on each bump another process or this one commits, and
 * when the watch is lost or back.
 */
export function dataVersionWatch(db: object): { live(): boolean; subscribe(changed: () => void): void } {
  const w = watchOf(db)
  return { live: () => w.live, subscribe: (changed) => void w.subscribers.add(changed) }
}

/**
 * Started once per server process on PostgreSQL, where imports run in other processes: every commit
 * that bumps the data version reaches this process's tile cache at once instead of at its next poll.
 * The embedded database has one owner, and its LISTEN hears nothing, so there the caches keep polling.
 */
export async function watchDataVersion(deps: { db: Database; logger: Logger }): Promise<void> {
  if (deps.db.kind !== 'postgres') return
  const w = watchOf(deps.db)
  const notify = () => w.subscribers.forEach((changed) => changed())
  await deps.db.listen(DATA_VERSION_CHANNEL, notify, (live) => {
    w.live = live
    notify()
    if (live) deps.logger.info('data version watch back')
    else deps.logger.warn('data version watch lost; tile caches poll the data version until it is back')
  })
  w.live = true
}
