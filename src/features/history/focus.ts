import { atom } from 'jotai'

/**
 * A history entry to show on the map: set by "Xem trên bản đồ" in the history, taken by the map once it
 * is ready, which then shows the stored result there without a new (counted) lookup.
 */
export const historyFocusAtom = atom<string | null>(null)
