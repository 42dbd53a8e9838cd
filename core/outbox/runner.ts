import { getItem, listItems, updateItem, type OutboxItem } from './queue.ts'

/**
 * Sends the queued uploads, oldest first, one at a time (a phone's upload is slow and shared). Every
 * attempt of an item carries the item's own idempotency key, so an upload whose answer was lost is
 * not stored twice when it is sent again. Used by the page and by the service worker with their own
 * way of sending; a lock keeps the two from sending at the same moment.
 */

export type SendOutcome =
  | { ok: true; uploadId: string }
  /**
   * retry: the item may go through later; permanent failures need the user. backoff: the server is busy
   * or down, so wait before the next try; without it (no connection, login needed) the next chance is
   * the connection or the login coming back.
   */
  | { ok: false; retry: boolean; backoff: boolean; message: string }

export type Sender = (item: OutboxItem, onProgress: (share: number) => void) => Promise<SendOutcome>

/**
 * What a failed upload means for the queue, from the envelope code (or the client's own code) and the
 * HTTP status (0 when no answer arrived).
 */
export function classifyFailure(code: string, status: number, message: string): SendOutcome {
  const connection = new Set(['Offline', 'Network', 'Timeout', 'Aborted', 'RequiredLogin', 'Unauthorized'])
  const server = new Set(['TooManyRequests', 'ServiceUnavailable', 'InternalServerError'])
  if (connection.has(code) || status === 0 || status === 401) return { ok: false, retry: true, backoff: false, message }
  if (server.has(code) || status === 429 || status >= 500) return { ok: false, retry: true, backoff: true, message }
  return { ok: false, retry: false, backoff: false, message }
}

/**
 * A send that was running when the page or worker died stays 'sending'. Under a lock every sender shares it
 * is taken up at once; without one (no navigator.locks) only after this long, as it may still be running.
 */
export const STALE_SENDING_MS = 2 * 60_000
export const RETRY_BASE_MS = 30_000
export const RETRY_MAX_MS = 30 * 60_000

export function retryDelay(attempts: number): number {
  return Math.min(RETRY_MAX_MS, RETRY_BASE_MS * 2 ** Math.max(0, attempts - 1))
}

/**
 * Whether the item should be sent now; `force` ignores the wait after a server failure (the user asked).
 * `senderGone`: the caller holds the lock every sender takes, so an item still marked sending was left
 * by a page that reloaded or closed mid-send, and is sent again at once (with its idempotency key).
 */
export function isDue(item: OutboxItem, now: number, force = false, senderGone = false): boolean {
  if (item.status === 'sending')
    return senderGone || item.lastAttemptAt === null || now - item.lastAttemptAt > STALE_SENDING_MS
  if (item.status !== 'pending') return false
  return force || item.nextAttemptAt === null || item.nextAttemptAt <= now
}

export type FlushDeps = {
  send: Sender
  now?: () => number
  isOnline?: () => boolean
  /** Runs the flush under a lock shared with other tabs and the worker (navigator.locks). */
  lock?: <T>(run: () => Promise<T>) => Promise<T>
  /**
   * Whether the lock is held by every context that sends (pages and worker), as the default is where
   * navigator.locks exists; the lock goes with a page that reloads, so an item found sending under it
   * has no sender left.
   */
  lockSpansContexts?: boolean
  /** Items someone else is sending right now (e.g. the valuation form itself) are left alone. */
  busy?: (item: OutboxItem) => boolean
  force?: boolean
  onStart?: (item: OutboxItem) => void
  onProgress?: (item: OutboxItem, share: number) => void
  onDone?: (item: OutboxItem, outcome: SendOutcome) => void
}

export type FlushResult = { sent: number; failed: number; waiting: number }

const webLocks = () => (globalThis.navigator as { locks?: LockManager } | undefined)?.locks

let localLock: Promise<unknown> = Promise.resolve()
/** The lock where navigator.locks exists (page and worker share it), else one within this context. */
export function defaultLock<T>(run: () => Promise<T>): Promise<T> {
  const locks = webLocks()
  if (locks) return locks.request('qh-outbox', run)
  const next = localLock.then(run, run)
  localLock = next.catch(() => undefined)
  return next
}

export function flushOutbox(deps: FlushDeps): Promise<FlushResult> {
  const now = deps.now ?? Date.now
  const isOnline = deps.isOnline ?? (() => true)
  const lock = deps.lock ?? defaultLock
  const senderGone = deps.lockSpansContexts ?? (deps.lock === undefined && webLocks() !== undefined)
  return lock(async () => {
    const result: FlushResult = { sent: 0, failed: 0, waiting: 0 }
    // Read again under the lock: whoever held it before may have sent some of these.
    const ids = (await listItems()).map((i) => i.id)
    let stopped = false
    for (const id of ids) {
      const item = await getItem(id)
      if (!item || item.status === 'sent' || item.status === 'failed') continue
      if (stopped || !isDue(item, now(), deps.force, senderGone) || deps.busy?.(item) || !isOnline()) {
        result.waiting += 1
        continue
      }
      const sending = await updateItem(id, { status: 'sending', attempts: item.attempts + 1, lastAttemptAt: now() })
      if (!sending) continue
      deps.onStart?.(sending)
      const outcome = await deps.send(sending, (share) => deps.onProgress?.(sending, share))
      if (outcome.ok) {
        await updateItem(id, { status: 'sent', uploadId: outcome.uploadId, error: null, nextAttemptAt: null })
        result.sent += 1
      } else if (outcome.retry) {
        await updateItem(id, {
          status: 'pending',
          error: outcome.message,
          nextAttemptAt: outcome.backoff ? now() + retryDelay(sending.attempts) : null,
        })
        result.waiting += 1
        // What stopped this one (no network, server away, login) stops the ones after it too.
        stopped = true
      } else {
        await updateItem(id, { status: 'failed', error: outcome.message, nextAttemptAt: null })
        result.failed += 1
      }
      deps.onDone?.(sending, outcome)
    }
    return result
  })
}

/** Items still to send (pending, or stuck sending), for badges and the decision to register a sync. */
export function unsent(items: readonly OutboxItem[]): OutboxItem[] {
  return items.filter((i) => i.status === 'pending' || i.status === 'sending')
}
