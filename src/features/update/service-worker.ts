import { Workbox } from 'workbox-window'

/** Registers sw.js (production builds only); it precaches the shell and every route chunk. */
export function registerServiceWorker(): void {
  if (!('serviceWorker' in navigator)) return
  const wb = new Workbox('/sw.js', { scope: '/' })
  void wb.register().catch((err: unknown) => console.warn('service worker not registered', err))
}

const WAIT_FOR_WORKER_MS = 15_000

/**
 * Makes the new build current: the new service worker (fetched now, installing the new precache) is
 * told to take over, and the page reloads once it controls the page. Without a worker: a plain reload.
 */
export async function activateNewBuild(reload: () => void = () => location.reload()): Promise<void> {
  const sw = 'serviceWorker' in navigator ? navigator.serviceWorker : undefined
  const reg = await sw?.getRegistration('/')
  if (!sw || !reg) return reload()
  let reloaded = false
  const once = () => {
    if (reloaded) return
    reloaded = true
    reload()
  }
  sw.addEventListener('controllerchange', once)
  const skipWaiting = (worker: ServiceWorker | null) => worker?.postMessage({ type: 'SKIP_WAITING' })
  reg.addEventListener('updatefound', () => {
    const installing = reg.installing
    installing?.addEventListener('statechange', () => {
      if (installing.state === 'installed') skipWaiting(installing)
    })
  })
  if (reg.waiting) skipWaiting(reg.waiting)
  else await reg.update().catch((err: unknown) => console.warn('service worker update failed', err))
  // A browser that never installs the new worker (storage full, fetch failed) still gets the new build.
  setTimeout(once, WAIT_FOR_WORKER_MS)
}
