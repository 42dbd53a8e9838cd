import { api } from '../../lib/api/index.ts'
import { store } from '../../lib/store.ts'
import { createValuationApi } from './api.ts'
import { startValuationQueue } from './queue.ts'

let started = false

/** Started once per page after the first paint: a valuation asked offline on an earlier visit runs when it can. */
export async function startValuation(): Promise<void> {
  if (started) return
  started = true
  await startValuationQueue({ store, client: api, api: createValuationApi(api) })
}
