import { clear, createStore, delMany, entries, set } from 'idb-keyval'
import type { LruEntry, LruStore } from './tile-cache.ts'

/** The recent-tile index in IndexedDB (idb-keyval), so sizes and last uses survive the worker stopping. */
export function idbLruStore(dbName: string, storeName: string): LruStore {
  const store = createStore(dbName, storeName)
  return {
    entries: () => entries<string, LruEntry>(store),
    set: (url, entry) => set(url, entry, store),
    delMany: (urls) => delMany(urls, store),
    clear: () => clear(store),
  }
}
