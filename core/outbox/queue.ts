import { createStore, del, entries, get, set, update, type UseStore } from 'idb-keyval'
import { offlineDbs } from '../offline/cache-names.ts'

/**
 * Uploads waiting for a connection, kept in IndexedDB (idb-keyval) with their Blobs and the form data
 * they belong to, so nothing typed or photographed is lost to a dead zone, a reload or a crash. Read
 * and written by the page and by the service worker (Background Sync); plain functions on IndexedDB.
 */

export type OutboxStatus = 'pending' | 'sending' | 'sent' | 'failed'

/** The photo as the valuation form shows it, stored beside the image so the form can be rebuilt. */
export type OutboxPhoto = {
  /** The form's key of the photo (PhotoItem.key). */
  key: string
  name: string
  width: number
  height: number
  thumbnail: string
  gps: { lat: number; lng: number } | null
  /** Place in the form's photo list. */
  position: number
}

export type OutboxItem = {
  id: string
  /** A valuation form's photo, or a photo of a boundary marker found or lost in stakeout (kept with its mark). */
  kind: 'photo' | 'corner-photo'
  /** Sending order: first queued, first sent. */
  seq: number
  createdAt: number
  status: OutboxStatus
  attempts: number
  lastAttemptAt: number | null
  /** After a failure the server may get over (busy, down), not before this time unless asked. */
  nextAttemptAt: number | null
  error: string | null
  /** Sent with every attempt, so a retry after a lost answer gets the first answer, not a second copy. */
  idempotencyKey: string
  blob: Blob
  /** File name and type as uploaded. */
  fileName: string
  type: string
  photo: OutboxPhoto
  /** What the item belongs to, for the queue screen, e.g. the parcel being valued. */
  label: string | null
  uploadId: string | null
}

let store: UseStore | undefined
function outboxStore(): UseStore {
  store ??= createStore(...offlineDbs.outbox)
  return store
}

const listeners = new Set<() => void>()
/** Called after changes made in this context (and, via outboxChanged, those the worker made). */
export function subscribeOutbox(listener: () => void): () => void {
  listeners.add(listener)
  return () => listeners.delete(listener)
}
export function outboxChanged(): void {
  for (const l of listeners) l()
}

let lastSeq = 0
/** Increasing even when two items are queued in the same millisecond. */
export function nextSeq(now: number): number {
  lastSeq = Math.max(now, lastSeq + 1)
  return lastSeq
}

export async function listItems(): Promise<OutboxItem[]> {
  const rows = await entries<string, OutboxItem>(outboxStore())
  return rows.map(([, item]) => item).sort((a, b) => a.seq - b.seq || (a.id < b.id ? -1 : 1))
}

export function getItem(id: string): Promise<OutboxItem | undefined> {
  return get<OutboxItem>(id, outboxStore())
}

export async function putItem(item: OutboxItem): Promise<void> {
  await set(item.id, item, outboxStore())
  outboxChanged()
}

/** Changes an item in one IndexedDB transaction; returns the new item, or undefined when it is gone. */
export async function updateItem(
  id: string,
  patch: Partial<OutboxItem> | ((item: OutboxItem) => Partial<OutboxItem>),
): Promise<OutboxItem | undefined> {
  let out: OutboxItem | undefined
  await update<OutboxItem | undefined>(
    id,
    (item) => {
      if (!item) return undefined
      out = { ...item, ...(typeof patch === 'function' ? patch(item) : patch) }
      return out
    },
    outboxStore(),
  )
  // idb-keyval's update writes undefined for a missing key; drop that again.
  if (!out) await del(id, outboxStore())
  outboxChanged()
  return out
}

export async function removeItem(id: string): Promise<void> {
  await del(id, outboxStore())
  outboxChanged()
}

/** A failed or waiting item goes back to the queue, to be sent at the next chance (now, if online). */
export function retryItem(id: string): Promise<OutboxItem | undefined> {
  return updateItem(id, (item) =>
    item.status === 'sent' ? {} : { status: 'pending', nextAttemptAt: null, error: null },
  )
}
