import { useEffect, useId } from 'react'

/**
 * Forms with typed input and uploads in progress register here, so a new build never reloads the page
 * under them; the update then waits for the user instead.
 */
const unsaved = new Set<string>()

export function setUnsavedWork(key: string, dirty: boolean): void {
  if (dirty) unsaved.add(key)
  else unsaved.delete(key)
}

export function hasUnsavedWork(): boolean {
  return unsaved.size > 0
}

/** Marks the calling component's form as holding unsaved input while `dirty` is true. */
export function useUnsavedWork(dirty: boolean): void {
  const key = useId()
  useEffect(() => {
    setUnsavedWork(key, dirty)
    return () => setUnsavedWork(key, false)
  }, [key, dirty])
}
