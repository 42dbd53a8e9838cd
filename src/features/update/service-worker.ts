/**
 * Registers sw.js (production builds only); it precaches the shell and every route chunk. workbox-window is
 * imported here, not by the entry: it registers after the page's load event anyway, so its code need not be
 * compiled with the first screen's.
 */
export function registerServiceWorker(): void {
  if (!('serviceWorker' in navigator)) return
  void import('workbox-window')
    .then(({ Workbox }) => new Workbox('/sw.js', { scope: '/' }).register())
    .catch((err: unknown) => console.warn('service worker not registered', err))
}

const SKIP_WAITING = { type: 'SKIP_WAITING' } as const

/**
 * Makes the new build current: the new service worker is told to take over once it has installed the
 * new precache, and the page reloads when that worker controls it, so page and worker are always of
 * the same build. A worker already installing (the browser found it on its own, or an earlier try
 * did) is waited for, never reloaded past: while the old worker controls the page, a reload would only
 * bring back the old build. Work running meanwhile (a saved-area download, an upload) is left to
 * finish what it can; both carry on after the reload (cursor, idempotency key).
 */
export async function activateNewBuild(reload: () => void = () => location.reload()): Promise<void> {
  const sw = 'serviceWorker' in navigator ? navigator.serviceWorker : undefined
  const reg = await sw?.getRegistration('/')
  // No worker serves this page: the network has the new build.
  if (!sw || !reg || !sw.controller) return reload()
  let reloaded = false
  const once = () => {
    if (reloaded) return
    reloaded = true
    reload()
  }
  sw.addEventListener('controllerchange', once)
  const takeOverWhenInstalled = (worker: ServiceWorker) => {
    if (worker.state === 'installed') return worker.postMessage(SKIP_WAITING)
    worker.addEventListener('statechange', () => {
      if (worker.state === 'installed') worker.postMessage(SKIP_WAITING)
      // Install failed (storage full, a file missing): the old build stays, and is still whole.
      else if (worker.state === 'redundant') console.warn('new service worker failed to install; staying on this build')
    })
  }
  reg.addEventListener('updatefound', () => {
    if (reg.installing) takeOverWhenInstalled(reg.installing)
  })
  const pending = reg.waiting ?? reg.installing
  if (pending) return takeOverWhenInstalled(pending)
  try {
    await reg.update()
  } catch (err) {
    console.warn('service worker update failed', err)
    return
  }
  // No newer worker than the one in control: it already holds the newest build (another tab switched
  // to it), so a reload brings that build.
  if (!reg.installing && !reg.waiting) once()
}
