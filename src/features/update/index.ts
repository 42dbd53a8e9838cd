// What other features use of app updates: marking work that an update must not throw away.
export { hasUnsavedWork, useUnsavedWork } from './unsaved-work.ts'
// What the app runs at start: the service worker, the watch for new builds, and applying one safely.
export { applyUpdateWhenSafe } from './apply-update.ts'
export { updatePromptAtom } from './atoms.ts'
export { startBuildWatch } from './build-watch.ts'
export { installChunkReload } from './chunk-reload.ts'
export { activateNewBuild, registerServiceWorker } from './service-worker.ts'
