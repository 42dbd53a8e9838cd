import { join } from 'node:path'
import { Hono } from 'hono'
import { requireUser } from '../../accounts/require-user.ts'
import type { AppEnv, Deps } from '../../deps.ts'
import { uploadLimits } from '../../uploads/multipart.ts'
import { diskStorage } from '../../uploads/storage.ts'
import { uploadHandlers, type UploadOptions } from './handlers.ts'

/**
 * `/api/uploads` of CONTRACT.md: POST photos, GET them back (owner only). Images are kept under
 * DATA_DIR/uploads unless another storage is given.
 */
export function uploadRoutes(deps: Deps, opts: Partial<UploadOptions> = {}) {
  const h = uploadHandlers(deps, {
    storage: opts.storage ?? diskStorage(join(deps.config.dataDir, 'uploads')),
    limits: opts.limits ?? uploadLimits,
    maxInFlight: opts.maxInFlight ?? 8,
  })
  return new Hono<AppEnv>()
    .use('*', requireUser(deps))
    .post('/', h.upload)
    .get('/:id', h.image)
    .get('/:id/thumb', h.thumb)
}
