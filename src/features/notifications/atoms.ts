import { atomWithStorage, createJSONStorage } from 'jotai/utils'
import { storageKeys } from '../../lib/storage-keys.ts'

export type ToastColor = 'red' | 'green' | 'yellow' | 'blue'
export type Toast = { id: string; title: string; color: ToastColor }

/** Toasts on screen; kept in localStorage so a message raised just before a reload is still read. */
export const toastsAtom = atomWithStorage<Toast[]>(
  storageKeys.toasts,
  [],
  createJSONStorage<Toast[]>(() => localStorage),
  { getOnInit: true },
)
