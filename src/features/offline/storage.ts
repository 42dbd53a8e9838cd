/** The origin's storage: how much is used and available, and whether it is kept when space runs low. */

export type StorageInfo = { usage: number; quota: number; persisted: boolean | null }

export async function storageInfo(): Promise<StorageInfo | null> {
  const s = typeof navigator === 'undefined' ? undefined : navigator.storage
  if (!s?.estimate) return null
  const { usage = 0, quota = 0 } = await s.estimate()
  const persisted = s.persisted ? await s.persisted() : null
  return { usage, quota, persisted }
}

/**
 * Asks the browser not to clear this origin's data under storage pressure (asked when the user saves
 * an area or installs the app). Chromium decides by itself, by engagement; true when granted.
 */
export async function requestPersistence(): Promise<boolean> {
  const s = typeof navigator === 'undefined' ? undefined : navigator.storage
  if (!s?.persist) return false
  if (s.persisted && (await s.persisted())) return true
  return s.persist().catch(() => false)
}
