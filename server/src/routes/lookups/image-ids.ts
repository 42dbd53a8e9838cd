import type { Queryable } from '../../db/index.ts'
import { ApiError } from '../../http/errors.ts'
import { ownsAllUploads } from '../../uploads/uploads.ts'

/** A valuation may cite only the caller's own uploads (docs/api.md): any other id is refused. */
export async function requireOwnImages(db: Queryable, userId: string, ids: string[]): Promise<void> {
  if (await ownsAllUploads(db, userId, ids)) return
  throw new ApiError('Forbidden', 'Ảnh không thuộc tài khoản của bạn.', {
    errors: { image_ids: ['Ảnh không thuộc tài khoản của bạn.'] },
  })
}
