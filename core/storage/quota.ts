/**
 * Whether a failed write was refused for lack of storage (IndexedDB, Cache Storage, localStorage): the
 * standard `QuotaExceededError` (a DOMException's legacy code 22 comes from that name) or Firefox's older
 * `NS_ERROR_DOM_QUOTA_REACHED`. The app then tells the user the device is full; the service worker drops
 * its recently viewed tiles.
 */
export function isQuotaError(err: unknown): boolean {
  if (typeof err !== 'object' || err === null) return false
  const { name } = err as { name?: unknown }
  return name === 'QuotaExceededError' || name === 'NS_ERROR_DOM_QUOTA_REACHED'
}
