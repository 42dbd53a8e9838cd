import { atom } from 'jotai'
import { atomWithStorage, createJSONStorage } from 'jotai/utils'
import { storageKeys } from '../../lib/storage-keys.ts'
import { emptyDraft, type ValuationDraft } from './form.ts'
import type { PhotoItem } from './photos.ts'
import { legalStatuses, type ValuationRecord } from '../../lib/valuation-record.ts'

function isPlace(v: unknown): boolean {
  if (v === null) return true
  if (typeof v !== 'object') return false
  const p = v as Record<string, unknown>
  return typeof p.lat === 'number' && typeof p.lng === 'number' && typeof p.label === 'string'
}

/** A stored draft from an older version or another app is replaced rather than half-read. */
function isDraft(v: unknown): v is ValuationDraft {
  if (typeof v !== 'object' || v === null) return false
  const d = v as Record<string, unknown>
  return (
    isPlace(d.place) &&
    ['area', 'frontage', 'alley', 'floors', 'notes'].every((k) => typeof d[k] === 'string') &&
    typeof d.frontsStreet === 'boolean' &&
    typeof d.keepGps === 'boolean' &&
    typeof d.legal === 'string' &&
    d.legal in legalStatuses
  )
}

const draftStorage = createJSONStorage<ValuationDraft>(() => localStorage)

/** Everything typed on the valuation screen, kept in localStorage on every keystroke. */
export const draftAtom = atomWithStorage<ValuationDraft>(
  storageKeys.valuationDraft,
  emptyDraft,
  {
    ...draftStorage,
    getItem: (key, initial) => {
      const value = draftStorage.getItem(key, initial)
      return isDraft(value) ? value : initial
    },
  },
  { getOnInit: true },
)

/** Photos attached to the current valuation, in the order they will be shown and printed. */
export const photosAtom = atom<PhotoItem[]>([])

/** The result on screen: a fresh valuation, or one reopened from the history (`storedAt` set). */
export type ShownResult = { record: ValuationRecord; historyId: string; at: number; stored: boolean }
export const resultAtom = atom<ShownResult | null>(null)

/** A valuation asked for offline, waiting for the link to return (flow.ts queueValuation). */
export const queuedAtom = atom(false)
