import type { Queryable } from '../db/index.ts'
import { assertStorageKey, type UploadStorage } from './storage.ts'

/**
 * Objects as rows of upload_objects (bytea): with DATABASE_URL, every server process on every machine
 * reads the same photos, and a backup of the database holds them too. A put replaces the row whole.
 */
export function databaseStorage(db: Queryable): UploadStorage {
  return {
    async put(key, bytes, contentType) {
      assertStorageKey(key)
      await db.query(
        `insert into upload_objects (key, content_type, bytes) values ($1, $2, $3)
         on conflict (key) do update set content_type = excluded.content_type, bytes = excluded.bytes, created_at = now()`,
        [key, contentType, Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength)],
      )
    },
    async get(key) {
      assertStorageKey(key)
      const rows = await db.query<{ bytes: Uint8Array }>('select bytes from upload_objects where key = $1', [key])
      const found = rows[0]?.bytes
      return found ? Buffer.from(found.buffer, found.byteOffset, found.byteLength) : null
    },
    async delete(key) {
      assertStorageKey(key)
      await db.query('delete from upload_objects where key = $1', [key])
    },
  }
}
