import { createStore, del, entries, set, type UseStore } from 'idb-keyval'
import { storageKeys } from '../../lib/storage-keys.ts'
import type { FixQuality } from '../position/index.ts'
import type { Target } from './guide.ts'

/**
 * What the surveyor found at a target: the marker there ("đã tìm thấy mốc"), gone ("mốc bị mất"), with the
 * position measured there (averaged or a single fix), its accuracy, and the photo queued in the outbox.
 * Kept on the device (IndexedDB) until cleared, and exported with the recorded coordinates beside.
 */
export type Mark = {
  id: string
  parcelId: string | null
  /** "Thửa 34, tờ 12", or null for a typed coordinate. */
  subject: string | null
  target: Target
  status: 'found' | 'lost'
  measured: {
    lat: number
    lng: number
    /** VN-2000 on the target's meridian. */
    x: number
    y: number
    accuracyM: number
    quality: FixQuality
    /** Averaged: the samples' spread (1σ, m) and their number; a single fix: null and 1. */
    sigmaM: number | null
    samples: number
  } | null
  note: string
  /** The outbox item carrying the photo (its status and server id live there). */
  photoId: string | null
  at: number
}

let db: UseStore | undefined
const store = () => (db ??= createStore(storageKeys.stakeoutDb, 'marks'))

export async function listMarks(): Promise<Mark[]> {
  return (await entries<string, Mark>(store())).map(([, m]) => m).sort((a, b) => a.at - b.at)
}
export const saveMark = (m: Mark) => set(m.id, m, store())
export const removeMark = (id: string) => del(id, store())

/** Measured minus recorded, metres: ΔX (north), ΔY (east) and the distance; null without a measurement. */
export function markOffset(m: Mark): { dx: number; dy: number; d: number } | null {
  if (!m.measured) return null
  const dx = m.measured.x - m.target.x
  const dy = m.measured.y - m.target.y
  return { dx, dy, d: Math.hypot(dx, dy) }
}
