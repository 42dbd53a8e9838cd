import { clear as idbClear, createStore, del, delMany, entries, get, set, type UseStore } from 'idb-keyval'
import type { PlanningData } from '#core/contract/lookups.ts'
import { storageKeys } from '../../lib/storage-keys.ts'
import { parcelContains } from '../../lib/geo/parcel-point.ts'
import type { ValuationRecord } from '../../lib/valuation-record.ts'

/**
 * Past lookups kept on the device (IndexedDB, object store 'history'), newest first, at most
 * HISTORY_LIMIT: a result can be reopened offline without counting usage again.
 */
export const HISTORY_LIMIT = 200

/** What each kind of entry stores as its result. */
export type HistoryResults = { planning: PlanningData; valuation: ValuationRecord }
export type HistoryKind = keyof HistoryResults

export type HistoryEntry<K extends HistoryKind = HistoryKind> = {
  [P in K]: {
    id: string
    kind: P
    /** When the lookup was made (ms since 1970). */
    at: number
    lat: number
    lng: number
    /** What the list shows, e.g. the address or "Tờ 12, thửa 34". */
    label: string
    result: HistoryResults[P]
  }
}[K]

/** An entry to add; id and time are filled in when missing. */
export type NewHistoryEntry<K extends HistoryKind = HistoryKind> = {
  [P in K]: Omit<HistoryEntry<P>, 'id' | 'at'> & { id?: string; at?: number }
}[K]

let store: UseStore | undefined
function historyStore(): UseStore {
  store ??= createStore(storageKeys.historyDb, 'history')
  return store
}

const listeners = new Set<() => void>()
/** Called after every change made in this tab; returns the unsubscribe function. */
export function subscribeHistory(listener: () => void): () => void {
  listeners.add(listener)
  return () => listeners.delete(listener)
}
function changed() {
  for (const l of listeners) l()
}

function newest(a: HistoryEntry, b: HistoryEntry) {
  return b.at - a.at || (a.id < b.id ? 1 : -1)
}

async function all(): Promise<HistoryEntry[]> {
  const rows = await entries<string, HistoryEntry>(historyStore())
  return rows.map(([, e]) => e).sort(newest)
}

/** Stores the entry and drops the oldest beyond HISTORY_LIMIT. */
export async function add<K extends HistoryKind>(entry: NewHistoryEntry<K>): Promise<HistoryEntry<K>> {
  const full = { ...entry, id: entry.id ?? crypto.randomUUID(), at: entry.at ?? Date.now() } as HistoryEntry<K>
  await set(full.id, full, historyStore())
  const kept = await all()
  const dropped = kept.slice(HISTORY_LIMIT).map((e) => e.id)
  if (dropped.length > 0) await delMany(dropped, historyStore())
  changed()
  return full
}

/** Every entry, newest first; only one kind when `kind` is given. */
export async function list<K extends HistoryKind>(kind?: K): Promise<HistoryEntry<K>[]> {
  const rows = await all()
  return (kind ? rows.filter((e) => e.kind === kind) : rows) as HistoryEntry<K>[]
}

export async function getEntry(id: string): Promise<HistoryEntry | undefined> {
  return get<HistoryEntry>(id, historyStore())
}

export async function remove(id: string): Promise<void> {
  await del(id, historyStore())
  changed()
}

export async function clear(): Promise<void> {
  await idbClear(historyStore())
  changed()
}

/**
 * The newest stored planning result for the parcel at a point: by the parcel id when the map knows it
 * (from the drawn parcel tiles), else the parcel whose outline contains the point.
 */
export async function storedPlanningAt(
  point: { lat: number; lng: number },
  parcelId?: string | null,
): Promise<HistoryEntry<'planning'> | undefined> {
  const entries = await list('planning')
  if (parcelId) {
    const byId = entries.find((e) => e.result.parcel?.id === parcelId)
    if (byId) return byId
  }
  // A zones-only answer has no outline to hold the point: it answers that same point again (a reload,
  // its shared link), within a metre.
  return entries.find((e) =>
    e.result.parcel !== null
      ? parcelContains(e.result.parcel, point.lat, point.lng)
      : Math.abs(e.lat - point.lat) < SAME_POINT_DEG && Math.abs(e.lng - point.lng) < SAME_POINT_DEG,
  )
}

/** About a metre in latitude (and less in longitude): the same point, written with fewer decimals. */
const SAME_POINT_DEG = 1e-5
