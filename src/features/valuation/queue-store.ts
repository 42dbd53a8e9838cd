import { createStore, del, get, set, type UseStore } from 'idb-keyval'
import type { Store } from '../../lib/store.ts'
import { storageKeys } from '../../lib/storage-keys.ts'
import { queuedAtom, type QueuedValuation } from './atoms.ts'
import { isDraft } from './form.ts'

/** Kept on the device (IndexedDB) until it has run, so closing or reloading the page loses nothing. */
const KEY = 'pending'

let db: UseStore | undefined
function queueDb(): UseStore {
  db ??= createStore(storageKeys.valuationQueueDb, 'queue')
  return db
}

function isQueued(v: unknown): v is QueuedValuation {
  if (typeof v !== 'object' || v === null) return false
  const q = v as Record<string, unknown>
  return (
    typeof q.at === 'number' &&
    isDraft(q.draft) &&
    (q.refused === null || typeof q.refused === 'string') &&
    typeof q.owner === 'string'
  )
}

/** The waiting valuation; null when there is none (or what is stored is from another version). */
export async function readQueued(): Promise<QueuedValuation | null> {
  const value = await get<unknown>(KEY, queueDb())
  return isQueued(value) ? value : null
}

export function writeQueued(queued: QueuedValuation): Promise<void> {
  return set(KEY, queued, queueDb())
}

export function dropQueued(): Promise<void> {
  return del(KEY, queueDb())
}

/** The waiting valuation goes from the device and the screen (logging out of a shared phone, "Bỏ yêu cầu"). */
export async function clearQueued(store: Store): Promise<void> {
  await dropQueued()
  store.set(queuedAtom, null)
}
