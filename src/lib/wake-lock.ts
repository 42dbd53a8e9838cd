import { useEffect } from 'react'

/**
 * Keeps the screen on while `active` (a boundary walk, an area download): the screen turning off would
 * pause the page's GPS and timers. The lock is released by the browser whenever the page is hidden, so it
 * is asked for again each time the page becomes visible. Where the API is missing, nothing happens.
 */
export function useWakeLock(active: boolean): void {
  useEffect(() => {
    if (!active || typeof navigator === 'undefined' || !('wakeLock' in navigator)) return
    let lock: WakeLockSentinel | null = null
    let stopped = false
    const request = () => {
      if (document.visibilityState !== 'visible' || (lock && !lock.released)) return
      navigator.wakeLock.request('screen').then(
        (l) => {
          if (stopped) void l.release()
          else lock = l
        },
        // Refused (battery saver, no user gesture yet): the walk goes on with the screen's own timeout.
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
  }, [active])
}
