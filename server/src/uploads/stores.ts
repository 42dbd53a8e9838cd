import { join } from 'node:path'
import type { Config } from '../config.ts'
import type { Queryable } from '../db/index.ts'
import { databaseStorage } from './database-storage.ts'
import { parseS3Url, s3Storage } from './s3-storage.ts'
import { diskStorage, type UploadStorage } from './storage.ts'

/**
 * The storage UPLOAD_STORE names: `disk` (DATA_DIR/uploads, the default with the embedded database),
 * `database` (bytea in PostgreSQL, the default with DATABASE_URL, so every server process on every
 * machine serves every photo) or `s3://bucket/prefix`.
 */
export function uploadStorageFor(config: Pick<Config, 'uploadStore' | 's3' | 'dataDir'>, db: Queryable): UploadStorage {
  if (config.uploadStore === 'database') return databaseStorage(db)
  if (config.uploadStore === 'disk') return diskStorage(join(config.dataDir, 'uploads'))
  if (!config.s3) throw new Error('UPLOAD_STORE is s3:// but the S3 settings are missing')
  return s3Storage({ ...config.s3, ...parseS3Url(config.uploadStore) })
}
