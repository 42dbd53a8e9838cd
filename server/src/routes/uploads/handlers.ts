import type { Context } from 'hono'
import { z } from 'zod'
import { currentUserId } from '../../accounts/require-user.ts'
import type { AppEnv, Deps } from '../../deps.ts'
import { ok } from '../../http/envelope.ts'
import { ApiError } from '../../http/errors.ts'
import { parseOr400 } from '../../http/validate.ts'
import { processImages } from '../../uploads/image.ts'
import { readImageFiles, type UploadLimits } from '../../uploads/multipart.ts'
import type { UploadStorage } from '../../uploads/storage.ts'
import {
  deleteUpload,
  fileNameOf,
  filesFingerprint,
  readUpload,
  recordedAnswer,
  saveUploads,
  uploadIdPattern,
} from '../../uploads/uploads.ts'

const idempotencyHeader = z.object({
  'Idempotency-Key': z
    .string()
    .trim()
    .min(1, 'Idempotency-Key không được để trống.')
    .max(255, 'Idempotency-Key tối đa 255 ký tự.')
    .regex(/^[\x21-\x7e]+$/, 'Idempotency-Key chỉ gồm ký tự ASCII in được.')
    .optional(),
})

const idParam = z.object({ id: z.string().regex(uploadIdPattern) })

export type UploadOptions = {
  storage: UploadStorage
  limits: UploadLimits
  /** Uploads being received or processed at once by this process; each may hold ~41 MB. */
  maxInFlight: number
  /** Of those, how many one account may have, so one account never takes every slot. */
  maxPerAccount: number
}

export function uploadHandlers(deps: Deps, opts: UploadOptions) {
  let inFlight = 0
  const perAccount = new Map<string, number>()

  const serveVariant = (variant: 'image' | 'thumb') => async (c: Context<AppEnv>) => {
    const userId = currentUserId(c)
    const param = idParam.safeParse({ id: c.req.param('id') })
    // Unknown, malformed and someone else's ids answer alike, so ids cannot be probed.
    const found = param.success ? await readUpload(deps.db, opts.storage, userId, param.data.id, variant) : null
    if (!found || !param.success) throw new ApiError('NotFound', 'Không tìm thấy hình ảnh.')
    return c.body(found.bytes as Uint8Array<ArrayBuffer>, 200, {
      'Content-Type': found.contentType,
      'Content-Disposition': `inline; filename="${fileNameOf(param.data.id, found.contentType)}"`,
      'X-Content-Type-Options': 'nosniff',
      // Never in the browser's HTTP cache, where a shared phone would keep it after logout; the app
      // keeps its own offline copy in IndexedDB and clears it on logout.
      'Cache-Control': 'private, no-store',
    })
  }

  return {
    async upload(c: Context<AppEnv>) {
      const userId = currentUserId(c)
      const key = parseOr400(idempotencyHeader, { 'Idempotency-Key': c.req.header('idempotency-key') })[
        'Idempotency-Key'
      ]
      const mine = perAccount.get(userId) ?? 0
      if (mine >= opts.maxPerAccount) {
        throw new ApiError(
          'TooManyRequests',
          `Bạn đang tải lên ${mine} lượt ảnh cùng lúc; vui lòng đợi các lượt đó xong rồi gửi tiếp.`,
          { headers: { 'Retry-After': '5' } },
        )
      }
      if (inFlight >= opts.maxInFlight) {
        throw new ApiError(
          'ServiceUnavailable',
          'Máy chủ đang nhận nhiều ảnh cùng lúc, vui lòng thử lại sau giây lát.',
          { headers: { 'Retry-After': '5' } },
        )
      }
      inFlight++
      perAccount.set(userId, mine + 1)
      try {
        const files = await readImageFiles(c.req.raw, opts.limits)
        // A retry sends the same files and is answered from the record; other files under its key are refused.
        const idempotency = key === undefined ? undefined : { key, fingerprint: filesFingerprint(files) }
        if (idempotency) {
          const first = await recordedAnswer(deps.db, userId, idempotency.key, idempotency.fingerprint)
          if (first) return ok(c, first, { status: 201, message: 'Đã tải ảnh lên.' })
        }
        const images = await processImages(files)
        const answer = await saveUploads(deps.db, opts.storage, { userId, images, idempotency, now: deps.now() })
        return ok(c, answer, { status: 201, message: 'Đã tải ảnh lên.' })
      } finally {
        inFlight--
        const left = (perAccount.get(userId) ?? 1) - 1
        if (left > 0) perAccount.set(userId, left)
        else perAccount.delete(userId)
      }
    },
    async remove(c: Context<AppEnv>) {
      const userId = currentUserId(c)
      const param = idParam.safeParse({ id: c.req.param('id') })
      const deleted = param.success && (await deleteUpload(deps.db, opts.storage, userId, param.data.id))
      if (!deleted) throw new ApiError('NotFound', 'Không tìm thấy hình ảnh.')
      return ok(c, null, { message: 'Đã xoá ảnh.' })
    },
    image: serveVariant('image'),
    thumb: serveVariant('thumb'),
  }
}
