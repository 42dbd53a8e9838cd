export const IDLE_CHECK_MS = 1000

/**
 * Switches to a new build without losing anything: when a form holds typed input or an upload runs,
 * the user is asked (showPrompt) and decides; otherwise it waits until no request is running, then
 * activates the new build (which reloads the page).
 */
export function applyUpdateWhenSafe(deps: {
  hasUnsavedWork: () => boolean
  isBusy: () => boolean
  activate: () => void
  showPrompt: () => void
  checkEveryMs?: number
}): () => void {
  let timer: ReturnType<typeof setTimeout> | undefined
  const step = () => {
    if (deps.hasUnsavedWork()) return deps.showPrompt()
    if (deps.isBusy()) {
      timer = setTimeout(step, deps.checkEveryMs ?? IDLE_CHECK_MS)
      return
    }
    deps.activate()
  }
  step()
  return () => clearTimeout(timer)
}
