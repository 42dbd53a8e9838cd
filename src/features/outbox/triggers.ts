import { createStore, del, set } from 'idb-keyval'
import type { ApiClient } from '../../lib/api/client.ts'
import type { Store } from '../../lib/store.ts'
import { isSessionValid, sessionAtom, type Session } from '../auth/index.ts'
import { offlineDbs, OUTBOX_SYNC_TAG, swMessages } from '#core/offline/cache-names.ts'
import { applySentItems, mirrorPhotos, photoProgress, restorePhotos } from './photo-bridge.ts'
import { outboxChanged } from '#core/outbox/queue.ts'
import { flushOutbox, type FlushResult } from '#core/outbox/runner.ts'
import { pageSender } from './send.ts'
import type { OutboxAuth } from '#core/outbox/worker-send.ts'

/**
 * When the queue is sent: at app open, when the connection comes back (`online`), when the app becomes
 * visible again (iOS has no Background Sync), after a login, and — where the browser has it — by
 * Background Sync in the service worker even with no page open.
 */

type SyncRegistration = ServiceWorkerRegistration & { sync?: { register(tag: string): Promise<void> } }

/**
 * Asks the browser to wake the worker once it is online again (Chromium); elsewhere the triggers above
 * do it. Only while offline: online, the form and the page's triggers send, and a sync registered now
 * would fire at once and send the same photos a second time in parallel.
 */
export async function registerBackgroundSync(): Promise<void> {
  if (!('serviceWorker' in navigator) || navigator.onLine) return
  const reg = (await navigator.serviceWorker.getRegistration('/')) as SyncRegistration | undefined
  await reg?.sync?.register(OUTBOX_SYNC_TAG).catch((err: unknown) => console.info('background sync unavailable', err))
}

const authStore = () => createStore(...offlineDbs.outboxAuth)

/** The worker sends without a page, so it needs the session's token; logging out takes it away again. */
async function shareAuth(session: Session): Promise<void> {
  if (isSessionValid(session))
    await set('session', { token: session.token, expiresAt: session.expiresAt } satisfies OutboxAuth, authStore())
  else await del('session', authStore())
}

let sendNow: ((force: boolean) => Promise<FlushResult | null>) | null = null

/** Online but something still waits (a dropped connection, a busy server): try again after this, doubling. */
const RETRY_FIRST_MS = 5000
const RETRY_LAST_MS = 5 * 60_000

/** Sends what is queued right away (the queue screen's "Gửi ngay"); null when it cannot (offline, logged out). */
export function sendOutboxNow(): Promise<FlushResult | null> {
  return sendNow?.(true) ?? Promise.resolve(null)
}

/** Something other than the valuation form queued an item (a stakeout photo): send it now, or once online. */
export function queuedForSending(): void {
  if (navigator.onLine) void sendNow?.(false)
  else void registerBackgroundSync()
}

export async function startOutbox(opts: { store: Store; api: ApiClient }): Promise<() => void> {
  const { store, api } = opts
  // The form's photos come back first; only then may the mirror remove what the form does not have.
  await restorePhotos(store)
  const stopMirror = mirrorPhotos(store, { onQueued: () => void registerBackgroundSync() })
  const progress = photoProgress(store)

  let running: Promise<FlushResult | null> | null = null
  let retryTimer: ReturnType<typeof setTimeout> | undefined
  let retryMs = RETRY_FIRST_MS
  const flush = (force: boolean): Promise<FlushResult | null> => {
    if (!navigator.onLine || !isSessionValid(store.get(sessionAtom))) return Promise.resolve(null)
    clearTimeout(retryTimer)
    running ??= flushOutbox({ send: pageSender(api), isOnline: () => navigator.onLine, force, ...progress })
      .then((r) => {
        if (r.waiting === 0) retryMs = RETRY_FIRST_MS
        else if (!navigator.onLine) void registerBackgroundSync()
        else {
          // No event will come for a connection that dropped while the device stayed online.
          retryTimer = setTimeout(() => void flush(false), retryMs)
          retryMs = Math.min(RETRY_LAST_MS, retryMs * 2)
        }
        return r
      })
      .catch((err: unknown) => {
        console.warn('outbox not sent', err)
        return null
      })
      .finally(() => (running = null))
    return running
  }
  sendNow = flush

  const onOnline = () => void flush(false)
  const onVisible = () => document.visibilityState === 'visible' && void flush(false)
  const onWorkerMessage = (e: MessageEvent) => {
    if ((e.data as { type?: string } | null)?.type !== swMessages.outboxChanged) return
    outboxChanged()
    void applySentItems(store)
  }
  window.addEventListener('online', onOnline)
  document.addEventListener('visibilitychange', onVisible)
  navigator.serviceWorker?.addEventListener('message', onWorkerMessage)
  void shareAuth(store.get(sessionAtom))
  const stopSession = store.sub(sessionAtom, () => {
    const session = store.get(sessionAtom)
    void shareAuth(session)
    if (isSessionValid(session)) void flush(false)
  })
  void flush(false)

  return () => {
    clearTimeout(retryTimer)
    stopMirror()
    stopSession()
    sendNow = null
    window.removeEventListener('online', onOnline)
    document.removeEventListener('visibilitychange', onVisible)
    navigator.serviceWorker?.removeEventListener('message', onWorkerMessage)
  }
}
