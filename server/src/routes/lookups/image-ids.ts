import type { Queryable } from '../../db/index.ts'
import { ApiError } from '../../http/errors.ts'

/**
 * A valuation may cite only the caller's own uploads (docs/api.md). Before the uploads table exists
 * no id can be anyone's, so any id is refused.
 */
export async function requireOwnImages(db: Queryable, userId: string, ids: string[]): Promise<void> {
  const unique = [...new Set(ids)]
  if (unique.length === 0) return
  const refused = new ApiError('Forbidden', 'Ảnh không thuộc tài khoản của bạn.', {
    errors: { image_ids: ['Ảnh không thuộc tài khoản của bạn.'] },
  })
  const [table] = await db.query<{ exists: boolean }>(`select to_regclass('uploads') is not null as exists`)
  if (!table?.exists) throw refused
  const owned = await db.query<{ id: string }>(
    'select id from uploads where id = any($1::text[]) and user_id::text = $2',
    [unique, userId],
  )
  if (owned.length !== unique.length) throw refused
}
