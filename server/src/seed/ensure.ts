import type { Database } from '../db/index.ts'
import type { Logger } from '../logger.ts'

/** Loads the demo dataset on first start, when the database has no dataset yet. */
export async function ensureDemoData(_db: Database, _logger: Logger): Promise<void> {}
