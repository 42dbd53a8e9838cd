import { storageKeys } from '../../lib/storage-keys.ts'

/** How long a reload marker blocks another reload of the same path. */
export const RELOAD_GUARD_MS = 10_000

/** Messages browsers use when a lazily loaded module cannot be fetched (usually a deploy removed it). */
const chunkErrorPatterns = [
  /Failed to fetch dynamically imported module/i,
  /error loading dynamically imported module/i,
  /Importing a module script failed/i,
  /Unable to preload CSS/i,
  /Loading (CSS )?chunk \S+ failed/i,
]

export function isChunkLoadError(error: unknown): boolean {
  const message = error instanceof Error ? error.message : typeof error === 'string' ? error : ''
  return chunkErrorPatterns.some((re) => re.test(message))
}

/**
 * Reloads the page once for a chunk that failed to load; a second failure of the same path within
 * RELOAD_GUARD_MS does not reload again, so a missing file can never cause a reload loop.
 * Returns whether it reloaded.
 */
export function reloadOnce(
  path: string,
  deps: { storage?: Storage; now?: () => number; reload?: () => void } = {},
): boolean {
  const storage = deps.storage ?? sessionStorage
  const now = (deps.now ?? Date.now)()
  const key = storageKeys.chunkReloadPrefix + path
  const last = Number(storage.getItem(key))
  if (Number.isFinite(last) && last > 0 && now - last < RELOAD_GUARD_MS) return false
  storage.setItem(key, String(now))
  ;(deps.reload ?? (() => location.reload()))()
  return true
}

let failedChunk = false

/** Whether a chunk failed to load on this page (the error page then explains it and offers a reload). */
export function chunkLoadFailed(): boolean {
  return failedChunk
}

/**
 * Vite fires `vite:preloadError` when a lazily loaded module or one of its files cannot be fetched
 * (usually a deploy replaced it). We always take the failure over — so the router's own reload, which
 * has no expiry, never runs as well — and reload once per path.
 */
export function installChunkReload(win: Window = window, reload?: () => void): () => void {
  const onPreloadError = (event: Event) => {
    event.preventDefault()
    failedChunk = true
    reloadOnce(win.location.pathname, { reload })
  }
  win.addEventListener('vite:preloadError', onPreloadError)
  return () => win.removeEventListener('vite:preloadError', onPreloadError)
}
