/// <reference lib="webworker" />
import { clientsClaim } from 'workbox-core'
import { cleanupOutdatedCaches, createHandlerBoundToURL, precacheAndRoute } from 'workbox-precaching'
import { NavigationRoute, registerRoute } from 'workbox-routing'
import { navigationDenylist } from './navigation.ts'
import { registerOutboxSync } from './outbox-sync.ts'
import { registerTileRoutes } from './tile-routes.ts'

declare const self: ServiceWorkerGlobalScope & { __WB_MANIFEST: (string | { url: string; revision: string | null })[] }

// The shell and every route chunk, listed by the build; a new build brings a new list.
precacheAndRoute(self.__WB_MANIFEST)
cleanupOutdatedCaches()

// Any app path opens the shell, online or not; the app shows its own 404 for unknown paths.
registerRoute(new NavigationRoute(createHandlerBoundToURL('/index.html'), { denylist: navigationDenylist }))

// Map tiles (saved areas, then recently viewed, then the network) and TileJSON, after the shell's routes.
registerTileRoutes()
// Photos queued offline are sent by Background Sync where the browser has it.
registerOutboxSync()

// The first install takes the open page at once, so it works offline without a reload.
clientsClaim()

// A newer worker waits until the page says it is safe to switch (no typed input is lost).
self.addEventListener('message', (event) => {
  if ((event.data as { type?: string } | null)?.type === 'SKIP_WAITING') void self.skipWaiting()
})
