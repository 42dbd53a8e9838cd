import type { Queryable } from '../db/database.ts'

/** The data version tile ETags and caches key on. */
export async function readDataVersion(db: Queryable): Promise<number> {
  const rows = await db.query<{ version: number }>('select version::float8 as version from data_version')
  return rows[0]?.version ?? 0
}

/**
 * Call inside the transaction that changes geodata (import, seed): every tile ETag changes with it
 * and tile caches drop what they hold once they see the new version. Returns the new version.
 */
export async function bumpDataVersion(tx: Queryable): Promise<number> {
  const rows = await tx.query<{ version: number }>('update data_version set version = version + 1 returning version::float8 as version')
  const version = rows[0]?.version
  if (version === undefined) throw new Error('data_version has no row')
  return version
}
