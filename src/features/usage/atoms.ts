import { atom } from 'jotai'
import { get as idbGet, set as idbSet } from 'idb-keyval'
import type { Store } from '../../lib/store.ts'
import { storageKeys } from '../../lib/storage-keys.ts'

export type UsageState = {
  count: number
  limit: number
  /** ISO time when the count goes back to 0; null until the server said it. */
  resetsAt: string | null
  /** When this was learnt from the server (ms); 0 = never. */
  updatedAt: number
}

export const emptyUsage: UsageState = { count: 0, limit: 0, resetsAt: null, updatedAt: 0 }

function isUsage(v: unknown): v is UsageState {
  if (typeof v !== 'object' || v === null) return false
  const u = v as Record<string, unknown>
  return (
    typeof u.count === 'number' &&
    typeof u.limit === 'number' &&
    (u.resetsAt === null || typeof u.resetsAt === 'string') &&
    typeof u.updatedAt === 'number'
  )
}

const usageBaseAtom = atom<UsageState>(emptyUsage)

/** The daily lookup counter; every write is also kept in IndexedDB so the last count shows offline. */
export const usageAtom = atom(
  (get) => get(usageBaseAtom),
  (_get, set, next: UsageState) => {
    set(usageBaseAtom, next)
    void idbSet(storageKeys.usage, next).catch((err: unknown) => console.warn('usage not saved', err))
  },
)

/** Loads the stored counter at start, unless the server already told us something newer. */
export async function loadStoredUsage(store: Store): Promise<void> {
  const stored: unknown = await idbGet(storageKeys.usage).catch(() => undefined)
  if (isUsage(stored) && stored.updatedAt > store.get(usageBaseAtom).updatedAt) store.set(usageBaseAtom, stored)
}

export function remaining(usage: UsageState): number {
  return Math.max(0, usage.limit - usage.count)
}

/** A count learnt before its reset time has passed no longer describes today. */
export function isUsageStale(usage: UsageState, now: number = Date.now()): boolean {
  return usage.resetsAt !== null && Date.parse(usage.resetsAt) <= now
}

/** From this many lookups left, the counter warns and says when new ones come. */
export const LOW_USAGE = 3

/**
 * The counter's warning near the end of the day's lookups: how many are left and when they reset
 * ("còn 2 lượt; lượt mới có từ 00:00 ngày 11/03/2026"); null while more than LOW_USAGE are left.
 */
export function lowUsageText(
  usage: UsageState,
  formatReset: (d: Date) => string,
  now: number = Date.now(),
): string | null {
  if (usage.limit === 0 || isUsageStale(usage, now)) return null
  const left = remaining(usage)
  if (left > LOW_USAGE) return null
  const reset = usage.resetsAt ? `; lượt mới có từ ${formatReset(new Date(usage.resetsAt))}` : ''
  return left === 0 ? `Đã hết lượt tra cứu hôm nay${reset}.` : `Chỉ còn ${left} lượt tra cứu hôm nay${reset}.`
}
