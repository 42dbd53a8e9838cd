import { buildInfo } from '#core/contract/system.ts'
import { fetchJson } from '../../lib/fetch-json.ts'

export const BUILD_POLL_MS = 5 * 60_000

/**
 * Asks the server which build is deployed: every 5 minutes while the page is visible, and at once when
 * it becomes visible or the network comes back. Calls onNewBuild (once) when the id differs from ours.
 * Fetch errors are only logged: being offline is normal for this app.
 */
export function startBuildWatch(opts: {
  currentId: string
  onNewBuild: (latestId: string) => void
  fetch?: typeof fetch
  intervalMs?: number
  doc?: Document
  win?: Window
  now?: () => number
}): () => void {
  const doc = opts.doc ?? document
  const win = opts.win ?? window
  const fetchImpl = opts.fetch ?? ((input: RequestInfo | URL, init?: RequestInit) => globalThis.fetch(input, init))
  const now = opts.now ?? Date.now
  let done = false
  let inFlight = false

  async function check() {
    if (done || inFlight || doc.visibilityState !== 'visible') return
    inFlight = true
    try {
      const { data: latest } = await fetchJson(
        `/builds/latest.json?${now()}`,
        buildInfo,
        { cache: 'no-store' },
        fetchImpl,
      )
      if (!done && latest.id !== opts.currentId) {
        done = true
        opts.onNewBuild(latest.id)
      }
    } catch (err) {
      console.info('build check skipped:', err instanceof Error ? err.message : err)
    } finally {
      inFlight = false
    }
  }

  const timer = win.setInterval(() => void check(), opts.intervalMs ?? BUILD_POLL_MS)
  const onVisible = () => void check()
  doc.addEventListener('visibilitychange', onVisible)
  win.addEventListener('online', onVisible)
  void check()
  return () => {
    done = true
    win.clearInterval(timer)
    doc.removeEventListener('visibilitychange', onVisible)
    win.removeEventListener('online', onVisible)
  }
}
