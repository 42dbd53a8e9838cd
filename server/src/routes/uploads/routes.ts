import { Hono } from 'hono'
import { z } from 'zod/mini'
import { uploadData } from '#core/contract/lookups.ts'
import { requireUser } from '../../accounts/require-user.ts'
import type { AppEnv, Deps } from '../../deps.ts'
import { endpoint } from '../../openapi/describe.ts'
import { uploadLimits } from '../../uploads/multipart.ts'
import { uploadStorageFor } from '../../uploads/stores.ts'
import { uploadHandlers, type UploadOptions } from './handlers.ts'

/** The multipart form POST /api/uploads reads (uploads/multipart.ts streams it; no validator holds it). */
const imagesForm = {
  type: 'object',
  properties: { images: { type: 'array', items: { type: 'string', contentEncoding: 'binary' } } },
  required: ['images'],
}

/**
 * `/api/uploads` of docs/api.md: POST photos, GET them back and DELETE them (owner only). Images are
 * kept where UPLOAD_STORE says (uploads/stores.ts) unless another storage is given.
 */
export function uploadRoutes(deps: Deps, opts: Partial<UploadOptions> = {}) {
  const h = uploadHandlers(deps, {
    storage: opts.storage ?? uploadStorageFor(deps.config, deps.db),
    limits: opts.limits ?? uploadLimits,
    maxInFlight: opts.maxInFlight ?? 8,
  })
  return new Hono<AppEnv>()
    .use('*', requireUser(deps))
    .post(
      '/',
      endpoint({
        summary: 'Tải lên 1–4 ảnh (multipart/form-data, trường images)',
        tag: 'uploads',
        bearer: true,
        created: true,
        body: { 'multipart/form-data': { schema: imagesForm } },
        answer: { envelope: uploadData },
        codes: ['BadRequest', 'Unauthorized', 'MaxFile', 'UnsupportedMedia', 'Conflict', 'TooManyRequests'],
      }),
      h.upload,
    )
    .get(
      '/:id',
      endpoint({
        summary: 'Ảnh đã tải lên (chỉ chủ sở hữu)',
        tag: 'uploads',
        bearer: true,
        pathParams: { id: 'Mã ảnh' },
        answer: { binary: 'image/*' },
        codes: ['Unauthorized', 'NotFound'],
      }),
      h.image,
    )
    .get(
      '/:id/thumb',
      endpoint({
        summary: 'Ảnh thu nhỏ (chỉ chủ sở hữu)',
        tag: 'uploads',
        bearer: true,
        pathParams: { id: 'Mã ảnh' },
        answer: { binary: 'image/*' },
        codes: ['Unauthorized', 'NotFound'],
      }),
      h.thumb,
    )
    .delete(
      '/:id',
      endpoint({
        summary: 'Xoá ảnh đã tải lên (chỉ chủ sở hữu)',
        tag: 'uploads',
        bearer: true,
        pathParams: { id: 'Mã ảnh' },
        answer: { envelope: z.null() },
        codes: ['Unauthorized', 'NotFound'],
      }),
      h.remove,
    )
}
