import { useEffect } from 'react'

/**
 * Keeps the screen on until the returned function is called (a boundary walk, an area download): the
 * screen turning off would pause the page's GPS, timers and downloads. The lock is released by the
 * browser whenever the page is hidden, so it is asked for again each time the page becomes visible.
 * Where the API is missing, nothing happens.
 */
export function holdWakeLock(): () => void {
  if (typeof navigator === 'undefined' || !('wakeLock' in navigator)) return () => undefined
  let lock: WakeLockSentinel | null = null
  let stopped = false
  const request = () => {
    if (stopped || document.visibilityState !== 'visible' || (lock && !lock.released)) return
    navigator.wakeLock.request('screen').then(
      (l) => {
        if (stopped) void l.release()
        else lock = l
      },
      // Refused (battery saver, no user gesture yet): the work goes on with the screen's own timeout.
      () => undefined,
    )
  }
  request()
  document.addEventListener('visibilitychange', request)
  return () => {
    stopped = true
    document.removeEventListener('visibilitychange', request)
    void lock?.release().catch(() => undefined)
  }
}

/** The screen kept on while `active`. */
export function useWakeLock(active: boolean): void {
  useEffect(() => (active ? holdWakeLock() : undefined), [active])
}
