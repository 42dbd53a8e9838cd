import { createStore, del, get, set, type UseStore } from 'idb-keyval'
import { storageKeys } from '../../lib/storage-keys.ts'
import type { Walk } from './track.ts'

/**
 * The walk in progress lives in IndexedDB, written after every recorded point: the phone may turn its
 * screen off, kill the tab or be restarted in the middle of a parcel, and the walk goes on from there.
 */
let db: UseStore | undefined
const walkStore = () => (db ??= createStore(storageKeys.walkDb, 'walks'))
const CURRENT = 'current'

export const loadWalk = () => get<Walk>(CURRENT, walkStore())
export const saveWalk = (w: Walk) => set(CURRENT, w, walkStore())
export const clearWalk = () => del(CURRENT, walkStore())
