/**
 * Loads the generated dataset of `--parcels N` into the database named by the environment and prints
 * one JSON line: rows per table and the load time (the vacuum after it not included). A child of the scale benchmark, so the embedded
 * database's memory is not the benchmark's.
 */
import { parseArgs } from 'node:util'
import { loadConfig } from '../server/src/config.ts'
import { openDatabase } from '../server/src/db/index.ts'
import { migrate } from '../server/src/db/migrate.ts'
import { loadDemo } from '../server/src/seed/load.ts'

const { values } = parseArgs({ options: { parcels: { type: 'string' } } })
const parcels = Number(values.parcels)
if (!Number.isInteger(parcels) || parcels < 1) throw new Error('--parcels N is required')
const tables = [
  'parcels',
  'parcel_land_use',
  'streets',
  'admin_units',
  'base_features',
  'planning_zones',
  'road_reserves',
  'price_rows',
  'comparables',
]

const db = await openDatabase(loadConfig())
try {
  await migrate(db)
  const result = await loadDemo(db, { parcels, reset: true })
  // Measured as a server runs once its autovacuum has passed over freshly loaded tables (visibility map
  // and hint bits set), not while that pass runs beside the first endpoints; not part of the load time.
  await db.query('vacuum (analyze)')
  const counts = await db.query<Record<string, number>>(
    `select ${tables.map((t) => `(select count(*) from ${t})::float8 as ${t}`).join(', ')}`,
  )
  const [size] = await db.query<{ bytes: number }>('select pg_database_size(current_database())::float8 as bytes')
  process.stdout.write(JSON.stringify({ ms: result.ms, rows: counts[0], dbBytes: size?.bytes ?? null }) + '\n')
} finally {
  await db.close()
}
