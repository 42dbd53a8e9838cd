import { atomWithStorage, createJSONStorage } from 'jotai/utils'
import { storageKeys } from '../../lib/storage-keys.ts'

export type ToastColor = 'red' | 'green' | 'yellow' | 'blue'
/** `at`: when it was raised (ms since 1970). */
export type Toast = { id: string; title: string; color: ToastColor; at: number }

/** How long a toast stays on screen. */
export const TOAST_DURATION_MS = 5000

const json = createJSONStorage<Toast[]>(() => localStorage)

/**
 * Toasts are kept in localStorage so a message raised just before a reload is still read; only while
 * it would still be on screen: one left behind by a closed tab is never replayed on a later visit.
 */
export const toastStorage: typeof json = {
  ...json,
  getItem: (key, initial) => {
    const stored = json.getItem(key, initial)
    const now = Date.now()
    return Array.isArray(stored)
      ? stored.filter((t) => typeof t.at === 'number' && t.at <= now && now - t.at < TOAST_DURATION_MS)
      : initial
  },
}

/** Toasts on screen. */
export const toastsAtom = atomWithStorage<Toast[]>(storageKeys.toasts, [], toastStorage, { getOnInit: true })
