import './app/styles.ts'
import { startTransition, StrictMode } from 'react'
import { createRoot } from 'react-dom/client'
import { App } from './app/App.tsx'
import { appApiHooks } from './app/api-hooks.ts'
import { router } from './app/router.ts'
import { installLogoutCleanup } from './features/auth/index.ts'
import { api, installApiHooks } from './lib/api/index.ts'
import { isLoadingAtom } from './lib/api/atoms.ts'
import { env, readBuildId } from './lib/env.ts'
import { store } from './lib/store.ts'
import { loadStoredUsage, refreshUsage } from './features/usage/index.ts'
import {
  activateNewBuild,
  applyUpdateWhenSafe,
  hasUnsavedWork,
  installChunkReload,
  registerServiceWorker,
  startBuildWatch,
  updatePromptAtom,
} from './features/update/index.ts'
import { captureInstallPrompt } from './features/install/index.ts'

installApiHooks(appApiHooks(store))
// Loaded at logout only: it reaches into the history, valuation and walk features, which the entry does not carry.
installLogoutCleanup(async (s) => (await import('./app/device-data.ts')).clearDeviceData(s))
installChunkReload()
// Before anything renders: the browser offers installing early, and the offer is kept for a better moment.
captureInstallPrompt()

// The first page's route code and loaders come first: rendered before them, the router shows nothing
// while they load, and React would swap index.html's boot shell (on /demo with its map) for an empty
// page meanwhile. The router keeps the loaded page and does not load it again when it mounts. As a
// transition the first render yields to the browser every few milliseconds (a slow phone stays
// responsive, the boot map keeps drawing); the boot shell stays until it is done.
const render = () => {
  const root = createRoot(document.getElementById('root')!)
  startTransition(() =>
    root.render(
      <StrictMode>
        <App />
      </StrictMode>,
    ),
  )
}
void router.load().then(render, render)

// The last known count shows at once (also offline); the server's count replaces it when it answers.
void loadStoredUsage(store).then(() => refreshUsage(api, store))

if (!env.dev) registerServiceWorker()

// Saved-area downloads carry on and queued photos are sent (app open is one of the outbox's triggers):
// once the page has loaded and the main thread is idle, so its ten chunks and storage reads do not
// delay the first screen (on /demo, the map's first tiles). A valuation asked offline runs after
// them, once its photos are back on the form.
afterLoadWhenIdle(
  () =>
    void import('./features/offline/start.ts')
      .then((m) => m.startOfflineFeatures())
      .then(() => import('./features/valuation/start.ts'))
      .then((m) => m.startValuation()),
)

function afterLoadWhenIdle(run: () => void): void {
  const idle = () =>
    'requestIdleCallback' in window ? requestIdleCallback(run, { timeout: 2000 }) : setTimeout(run, 0)
  if (document.readyState === 'complete') idle()
  else window.addEventListener('load', idle, { once: true })
}

const buildId = readBuildId()
if (buildId) {
  startBuildWatch({
    currentId: buildId,
    onNewBuild: () =>
      applyUpdateWhenSafe({
        hasUnsavedWork,
        isBusy: () => store.get(isLoadingAtom),
        activate: () => void activateNewBuild(),
        showPrompt: () => store.set(updatePromptAtom, true),
      }),
  })
}
