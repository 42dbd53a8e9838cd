import type { ApiClient } from '../../lib/api/client.ts'
import { uploadData } from '#core/contract/lookups.ts'
import { xhrFetch, type XhrLike } from '../valuation/index.ts'
import type { OutboxItem } from '#core/outbox/queue.ts'
import { classifyFailure, type Sender } from '#core/outbox/runner.ts'

/**
 * Sends a queued photo from the page through the app's API client (session, XSRF, usage rules) to
 * POST /api/uploads with the item's idempotency key. Quiet: the queue screen and the photo tiles show
 * the outcome, so a background retry never fills the screen with toasts.
 */
export function pageSender(api: ApiClient, Xhr?: new () => XhrLike): Sender {
  return async (item: OutboxItem, onProgress) => {
    const form = new FormData()
    form.append('images', item.blob, item.fileName)
    const res = await api.request({
      method: 'POST',
      path: '/api/uploads',
      formData: form,
      headers: { 'Idempotency-Key': item.idempotencyKey },
      data: uploadData,
      overlay: false,
      toast: 'none',
      fetch: xhrFetch((loaded, total) => onProgress(total > 0 ? loaded / total : 0), Xhr),
    })
    if (res.ok) {
      const first = res.data[0]
      return first
        ? { ok: true, uploadId: first.id }
        : classifyFailure('InternalServerError', 500, 'Máy chủ không trả về ảnh đã nhận.')
    }
    return classifyFailure(res.code, res.status, res.message)
  }
}
