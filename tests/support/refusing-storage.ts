import { vi } from 'vitest'

/**
 * IndexedDB as a phone with full or broken storage behaves: every write (or every read) fails with the
 * error the browser gives. Returns the function that puts IndexedDB back.
 */
export function refuseStorage(what: 'writes' | 'reads'): () => void {
  const fail = (): never => {
    throw new DOMException('The quota has been exceeded.', what === 'writes' ? 'QuotaExceededError' : 'UnknownError')
  }
  const spies =
    what === 'writes'
      ? [vi.spyOn(IDBObjectStore.prototype, 'put').mockImplementation(fail)]
      : [
          vi.spyOn(IDBObjectStore.prototype, 'getAll').mockImplementation(fail),
          vi.spyOn(IDBObjectStore.prototype, 'openCursor').mockImplementation(fail),
          vi.spyOn(IDBObjectStore.prototype, 'get').mockImplementation(fail),
        ]
  return () => {
    for (const s of spies) s.mockRestore()
  }
}
