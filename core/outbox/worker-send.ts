import type { OutboxItem } from './queue.ts'
import { classifyFailure, type Sender } from './runner.ts'

/** The session as the page hands it to the service worker, for sending while no page is open. */
export type OutboxAuth = { token: string; expiresAt: string }

export function authValid(auth: OutboxAuth | undefined, now: number): auth is OutboxAuth {
  return !!auth && auth.token !== '' && Date.parse(auth.expiresAt) > now
}

/**
 * Sends a queued photo from the service worker (Background Sync), where the app's API client does not
 * run: the same request — multipart field `images`, Bearer token, Idempotency-Key — read with the
 * contract's envelope rules (no `meta.code` means InternalServerError).
 */
export function workerSender(opts: { baseUrl: string; auth: OutboxAuth; fetch?: typeof fetch }): Sender {
  const doFetch = opts.fetch ?? fetch
  return async (item: OutboxItem) => {
    const form = new FormData()
    form.append('images', item.blob, item.fileName)
    let res: Response
    try {
      res = await doFetch(`${opts.baseUrl}/api/uploads`, {
        method: 'POST',
        body: form,
        headers: {
          Accept: 'application/json',
          Authorization: `Bearer ${opts.auth.token}`,
          'Idempotency-Key': item.idempotencyKey,
        },
      })
    } catch {
      return classifyFailure('Network', 0, 'Không kết nối được máy chủ.')
    }
    let body: { message?: unknown; meta?: { code?: unknown }; data?: unknown } = {}
    try {
      body = (await res.json()) as typeof body
    } catch {
      // Not JSON (a proxy's error page): read as InternalServerError below.
    }
    const code = typeof body.meta?.code === 'string' ? body.meta.code : 'InternalServerError'
    const message = typeof body.message === 'string' ? body.message : 'Gửi ảnh không thành công.'
    const first = Array.isArray(body.data) ? (body.data[0] as { id?: unknown } | undefined) : undefined
    if (code === 'Ok' && res.ok && typeof first?.id === 'string') return { ok: true, uploadId: first.id }
    return classifyFailure(code, typeof body.meta?.code === 'string' ? res.status : Math.max(res.status, 500), message)
  }
}
