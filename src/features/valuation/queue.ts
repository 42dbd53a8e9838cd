import { errorTexts } from '../../lib/errors.ts'
import { sessionAtom, isSessionValid } from '../auth/index.ts'
import { pushToast } from '../notifications/index.ts'
import { queuedAtom } from './atoms.ts'
import { canSendNow, runValuation, type RunOutcome, type ValuationDeps } from './flow.ts'
import { clearQueued, dropQueued, readQueued, writeQueued } from './queue-store.ts'

/**
 * Runs the valuation asked for offline (flow.ts queueValuation keeps it on the device) once it can:
 * when the link returns, when the app starts online (after a reload or a restart), after a login.
 * Its result goes to the history with one notice; a refusal (daily limit, no parcel there) stays on
 * the valuation screen with the server's reason until the person tries again or lets it go.
 */

/** The call got no answer, or needs a login first: the request keeps waiting. */
function stillWaiting(out: Extract<RunOutcome, { ok: false }>, deps: ValuationDeps): boolean {
  if (out.queued) return true
  if (out.failure) return out.failure.status === 0 || out.failure.status === 401
  // A photo that could not go up because the link dropped again.
  return !canSendNow(deps)
}

function reasonOf(out: Extract<RunOutcome, { ok: false }>): string {
  return out.failure?.message || out.message || Object.values(out.errors ?? {})[0] || errorTexts.UNKNOWN
}

let running: Promise<void> | null = null

async function runOnce(deps: ValuationDeps): Promise<void> {
  const { store } = deps
  const queued = store.get(queuedAtom)
  if (!queued || queued.refused !== null || !canSendNow(deps)) return
  // Another person's request waits for its own account; one asked logged out belongs to the next login.
  const user = store.get(sessionAtom).userName
  if (queued.owner !== '' && queued.owner !== user) return
  const out = await runValuation(deps, queued.draft)
  if (out.ok) {
    await dropQueued()
    store.set(queuedAtom, null)
    pushToast(store, 'success', `Đã định giá ${out.record.place.label}. Kết quả có trong lịch sử.`)
    return
  }
  if (stillWaiting(out, deps)) return
  const refused = { ...queued, refused: reasonOf(out) }
  await writeQueued(refused)
  store.set(queuedAtom, refused)
}

/** Runs the waiting valuation now if it can; a second call while it runs waits for the same run. */
export function runQueued(deps: ValuationDeps): Promise<void> {
  running ??= runOnce(deps).finally(() => (running = null))
  return running
}

/** "Thử lại" on a refused request: it waits again, and runs at once when online. */
export async function retryQueued(deps: ValuationDeps): Promise<void> {
  const queued = deps.store.get(queuedAtom)
  if (!queued) return
  const waiting = { ...queued, refused: null }
  await writeQueued(waiting)
  deps.store.set(queuedAtom, waiting)
  await runQueued(deps)
}

/** "Bỏ yêu cầu": the request goes; the form, with what was typed and photographed, stays as it is. */
export function dismissQueued(deps: ValuationDeps): Promise<void> {
  return clearQueued(deps.store)
}

/**
 * At app start: the request kept from an earlier visit comes back on screen, and runs now if the app
 * is online and logged in, else on the next `online` event or login. Returns the stop function.
 */
export async function startValuationQueue(deps: ValuationDeps): Promise<() => void> {
  const { store } = deps
  const stored = await readQueued()
  if (stored && !store.get(queuedAtom)) store.set(queuedAtom, stored)
  const run = () => void runQueued(deps)
  window.addEventListener('online', run)
  const stopSession = store.sub(sessionAtom, () => {
    if (isSessionValid(store.get(sessionAtom), (deps.now ?? Date.now)())) run()
  })
  run()
  return () => {
    window.removeEventListener('online', run)
    stopSession()
  }
}
