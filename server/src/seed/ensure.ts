import type { Database } from '../db/index.ts'
import type { Logger } from '../logger.ts'
import { BOUNDARIES } from '../places/boundaries.ts'
import { DEMO } from './generate.ts'
import { loadDemo } from './load.ts'

/** Loads the demo dataset on first start, when the database has no dataset yet (the shipped boundaries aside). */
export async function ensureDemoData(db: Database, logger: Logger): Promise<void> {
  const any = await db.query('select 1 from datasets where id <> $1 limit 1', [BOUNDARIES.datasetId])
  if (any.length > 0) return
  logger.info('loading demo dataset', { name: DEMO.name })
  const result = await loadDemo(db)
  if (result.loaded)
    logger.info('demo dataset loaded', {
      parcels: result.parcels,
      comparables: result.comparables,
      zones: result.zones,
      ms: result.ms,
    })
}
