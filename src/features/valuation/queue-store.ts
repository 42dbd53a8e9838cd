import { createStore, del, get, set, type UseStore } from 'idb-keyval'
import { storageKeys } from '../../lib/storage-keys.ts'
import { isDraft, type ValuationDraft } from './form.ts'

/**
 * A valuation asked for offline, kept on the device (IndexedDB) until it has run, so closing or
 * reloading the page loses nothing. Its photos wait in the outbox, which keeps them the same way.
 */
export type QueuedValuation = {
  /** When "Định giá" was pressed (ms since 1970). */
  at: number
  /** The form as it was then: that is what is valued, even if the form is changed meanwhile. */
  draft: ValuationDraft
  /** Why the server refused it when it ran (daily limit, no parcel there…); null while it waits. */
  refused: string | null
}

const KEY = 'pending'

let db: UseStore | undefined
function queueDb(): UseStore {
  db ??= createStore(storageKeys.valuationQueueDb, 'queue')
  return db
}

function isQueued(v: unknown): v is QueuedValuation {
  if (typeof v !== 'object' || v === null) return false
  const q = v as Record<string, unknown>
  return typeof q.at === 'number' && isDraft(q.draft) && (q.refused === null || typeof q.refused === 'string')
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
