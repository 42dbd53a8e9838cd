/// <reference lib="webworker" />
import { createStore, get } from 'idb-keyval'
import { offlineDbs, OUTBOX_SYNC_TAG, swMessages } from '#core/offline/cache-names.ts'
import { flushOutbox } from '#core/outbox/runner.ts'
import { authValid, workerSender, type OutboxAuth } from '#core/outbox/worker-send.ts'

declare const self: ServiceWorkerGlobalScope

/** Background Sync is not in TypeScript's worker library yet. */
type SyncEvent = ExtendableEvent & { tag: string }

/**
 * Background Sync: the browser wakes the worker once it is online again, with or without an open page,
 * and the worker sends the queued uploads itself. Items still waiting afterwards reject the event, so
 * the browser schedules another try.
 */
export function registerOutboxSync(): void {
  self.addEventListener('sync', (event) => {
    const e = event as SyncEvent
    if (e.tag === OUTBOX_SYNC_TAG) e.waitUntil(sendQueued())
  })
}

async function sendQueued(): Promise<void> {
  const auth = await get<OutboxAuth>('session', createStore(...offlineDbs.outboxAuth))
  // Without a valid session nothing can be sent; the page sends after the next login.
  if (!authValid(auth, Date.now())) return
  const result = await flushOutbox({
    send: workerSender({ baseUrl: self.location.origin, auth }),
    isOnline: () => navigator.onLine,
  })
  if (result.sent > 0 || result.failed > 0) {
    for (const client of await self.clients.matchAll({ type: 'window' }))
      client.postMessage({ type: swMessages.outboxChanged })
  }
  if (result.waiting > 0) throw new Error(`${result.waiting} uploads still waiting`)
}
