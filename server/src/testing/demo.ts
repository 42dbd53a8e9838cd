import type { Database } from '../db/index.ts'
import { loadDemo } from '../seed/load.ts'
import { testDb } from './test-app.ts'

let loaded: Promise<Database> | undefined

/**
 * The shared test database with the default demo dataset in it. Loaded at most once per test run
 * (loadDemo itself skips when another file or an earlier run already put it there).
 */
export function demoLoaded(): Promise<Database> {
  loaded ??= (async () => {
    const db = await testDb()
    await loadDemo(db)
    return db
  })()
  return loaded
}
