import { createHash, randomBytes } from 'node:crypto'
import type { UploadData } from '#core/contract/lookups.ts'
import type { Queryable } from '../db/index.ts'
import type { Database } from '../db/database.ts'
import { ConflictError, UnavailableError } from '../domain-errors.ts'
import type { EncodedImage, ProcessedImage } from './image.ts'
import { isStorageFull, type UploadStorage } from './storage.ts'

export type UploadResult = UploadData[number]

/** 128 random bits, URL-safe: unguessable, and never a path or SQL concern. */
export function newUploadId(): string {
  return randomBytes(16).toString('base64url')
}

export const uploadIdPattern = /^[A-Za-z0-9_-]{1,64}$/

export const uploadUrl = (id: string) => `/api/uploads/${id}`

const extension = (contentType: string) => (contentType === 'image/webp' ? 'webp' : 'jpg')

/** The name a browser offers when saving the image: the id and the extension of its real type. */
export function fileNameOf(id: string, contentType: string): string {
  return `${id}.${extension(contentType)}`
}

/** Thrown inside the transaction when another request already recorded this Idempotency-Key. */
class AlreadyRecorded extends Error {}

/** What a set of files is, in order, for telling a retry (the same files) from another request under its key. */
export function filesFingerprint(files: readonly Uint8Array[]): string {
  const all = createHash('sha256')
  for (const f of files) all.update(createHash('sha256').update(f).digest())
  return all.digest('hex')
}

const keyReused = () =>
  new ConflictError('Mã Idempotency-Key này đã dùng cho những ảnh khác; hãy gửi ảnh mới với một mã mới.')

/**
 * The answer first given to this account for this Idempotency-Key, if any. Throws ConflictError when
 * the key was first used for other files (`fingerprint`, see filesFingerprint).
 */
export async function recordedAnswer(
  db: Queryable,
  userId: string,
  idempotencyKey: string,
  fingerprint: string,
): Promise<UploadResult[] | null> {
  const rows = await db.query<{ response: UploadResult[]; files_sha256: string | null }>(
    'select response, files_sha256 from upload_requests where user_id = $1 and idempotency_key = $2',
    [userId, idempotencyKey],
  )
  const row = rows[0]
  if (!row) return null
  // Recorded before files were fingerprinted: answered as the retry it most likely is.
  if (row.files_sha256 !== null && row.files_sha256 !== fingerprint) throw keyReused()
  return row.response
}

/**
 * Stores the processed images and records them for the account, all or nothing: objects are written
 * first, rows after in one transaction, and the objects are deleted again if anything fails.
 * With an Idempotency-Key that another request recorded meanwhile, this request's objects are
 * dropped and that request's answer is returned instead, so retries never create duplicates.
 */
export async function saveUploads(
  db: Database,
  storage: UploadStorage,
  input: {
    userId: string
    images: ProcessedImage[]
    /** With the fingerprint of the files as sent (filesFingerprint). */
    idempotency?: { key: string; fingerprint: string } | undefined
    now: Date
  },
): Promise<UploadResult[]> {
  const stored: string[] = []
  const dropStored = () => Promise.allSettled(stored.map((key) => storage.delete(key)))
  const put = async (key: string, img: EncodedImage) => {
    await storage.put(key, img.bytes, img.contentType)
    stored.push(key)
  }

  const rows = input.images.map(({ image, thumb }) => {
    const id = newUploadId()
    // Two-character folders keep any one directory small.
    const base = `${id.slice(0, 2)}/${id}`
    return {
      id,
      image,
      thumb,
      key: `${base}.${extension(image.contentType)}`,
      thumbKey: `${base}-thumb.${extension(thumb.contentType)}`,
    }
  })
  const answer: UploadResult[] = rows.map((r) => ({
    id: r.id,
    url: uploadUrl(r.id),
    width: r.image.width,
    height: r.image.height,
    bytes: r.image.bytes.length,
  }))

  try {
    for (const r of rows) {
      await put(r.key, r.image)
      await put(r.thumbKey, r.thumb)
    }
  } catch (err) {
    await dropStored()
    if (isStorageFull(err)) {
      throw new UnavailableError('Máy chủ đã hết chỗ lưu ảnh. Ảnh chưa được lưu, vui lòng thử lại sau.', 60)
    }
    throw err
  }

  try {
    await db.transaction(async (tx) => {
      if (input.idempotency !== undefined) {
        const claimed = await tx.query(
          `insert into upload_requests (user_id, idempotency_key, response, created_at, files_sha256) values ($1, $2, $3::jsonb, $4, $5)
           on conflict do nothing returning 1 as claimed`,
          [input.userId, input.idempotency.key, JSON.stringify(answer), input.now, input.idempotency.fingerprint],
        )
        if (claimed.length === 0) throw new AlreadyRecorded()
      }
      for (const r of rows) {
        await tx.query(
          `insert into uploads (id, user_id, width, height, bytes, content_type, storage_key, thumb_key, thumb_content_type, created_at, idempotency_key)
           values ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11)`,
          [
            r.id,
            input.userId,
            r.image.width,
            r.image.height,
            r.image.bytes.length,
            r.image.contentType,
            r.key,
            r.thumbKey,
            r.thumb.contentType,
            input.now,
            input.idempotency?.key ?? null,
          ],
        )
      }
    })
  } catch (err) {
    await dropStored()
    if (err instanceof AlreadyRecorded && input.idempotency !== undefined) {
      const { key, fingerprint } = input.idempotency
      const first = await recordedAnswer(db, input.userId, key, fingerprint)
      if (first) return first
    }
    throw err
  }
  return answer
}

/** One stored image of the account, or null when it does not exist or belongs to someone else. */
export async function readUpload(
  db: Queryable,
  storage: UploadStorage,
  userId: string,
  id: string,
  variant: 'image' | 'thumb',
): Promise<{ bytes: Uint8Array; contentType: string } | null> {
  const rows = await db.query<{
    storage_key: string
    thumb_key: string
    content_type: string
    thumb_content_type: string
  }>('select storage_key, thumb_key, content_type, thumb_content_type from uploads where id = $1 and user_id = $2', [
    id,
    userId,
  ])
  const row = rows[0]
  if (!row) return null
  const bytes = await storage.get(variant === 'image' ? row.storage_key : row.thumb_key)
  if (!bytes) return null
  return { bytes, contentType: variant === 'image' ? row.content_type : row.thumb_content_type }
}

/**
 * Deletes one upload of the account: its row first (from then on no process serves it), then its two
 * objects. False when there is no such upload of this account (already deleted, or someone else's).
 * An object whose delete failed is only unreachable bytes, never a photo still shown.
 */
export async function deleteUpload(
  db: Queryable,
  storage: UploadStorage,
  userId: string,
  id: string,
): Promise<boolean> {
  const rows = await db.query<{ storage_key: string; thumb_key: string }>(
    'delete from uploads where id = $1 and user_id = $2 returning storage_key, thumb_key',
    [id, userId],
  )
  const row = rows[0]
  if (!row) return false
  await Promise.all([storage.delete(row.storage_key), storage.delete(row.thumb_key)])
  return true
}

/**
 * True when every id names an upload of this account (an empty list is trivially owned). For the
 * valuation endpoint: image_ids that are unknown or someone else's make it false.
 */
export async function ownsAllUploads(db: Queryable, userId: string, ids: readonly string[]): Promise<boolean> {
  const wanted = [...new Set(ids)]
  if (wanted.length === 0) return true
  if (!wanted.every((id) => uploadIdPattern.test(id))) return false
  const rows = await db.query<{ n: number }>(
    'select count(*)::int as n from uploads where id = any($1::text[]) and user_id = $2',
    [wanted, userId],
  )
  return rows[0]?.n === wanted.length
}
