import { atom } from 'jotai'
import { atomWithStorage, createJSONStorage } from 'jotai/utils'
import { storageKeys } from '../../lib/storage-keys.ts'
import { emptyDraft, isDraft, type ValuationDraft } from './form.ts'
import type { PhotoItem } from './photos.ts'
import type { ValuationRecord } from '../../lib/valuation-record.ts'

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
  /**
   * The account it was asked on ('' when asked logged out): on a shared phone it runs only on that
   * account, never on the next person's after a logout that kept the device's data.
   */
  owner: string
}

/** A valuation asked for offline, waiting for the link to return or refused when it ran (queue.ts). */
export const queuedAtom = atom<QueuedValuation | null>(null)
