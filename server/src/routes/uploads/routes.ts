import { Hono } from 'hono'
import { requireUser } from '../../accounts/require-user.ts'
import type { AppEnv, Deps } from '../../deps.ts'
import { uploadLimits } from '../../uploads/multipart.ts'
import { uploadStorageFor } from '../../uploads/stores.ts'
import { uploadHandlers, type UploadOptions } from './handlers.ts'

/**
 * `/api/uploads` of CONTRACT.md: POST photos, GET them back and DELETE them (owner only). Images are
 * kept where UPLOAD_STORE says (uploads/stores.ts) unless another storage is given.
 */
export function uploadRoutes(deps: Deps, opts: Partial<UploadOptions> = {}) {
  const h = uploadHandlers(deps, {
    storage: opts.storage ?? uploadStorageFor(deps.config, deps.db),
    limits: opts.limits ?? uploadLimits,
    maxInFlight: opts.maxInFlight ?? deps.config.uploadsInFlight,
    maxPerAccount: opts.maxPerAccount ?? deps.config.uploadsPerAccount,
  })
  return new Hono<AppEnv>()
    .use('*', requireUser(deps))
    .post('/', h.upload)
    .get('/:id', h.image)
    .get('/:id/thumb', h.thumb)
    .delete('/:id', h.remove)
}
