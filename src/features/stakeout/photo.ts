import { processImage, type ImagePlatform } from '../../lib/images/process.ts'
import { checkImageFile } from '../../lib/images/limits.ts'
import { nextSeq, putItem, type OutboxItem } from '#core/outbox/queue.ts'
import { queuedForSending } from '../outbox/index.ts'

/**
 * A photo of a marker found or lost, prepared like every photo (upright, ≤ 2048 px, no metadata) and put
 * in the outbox with its own idempotency key, so it reaches the server once whenever there is a
 * connection; the mark keeps the item's id. Returns that id, or a message saying why the file was refused.
 */
export async function queueMarkPhoto(
  file: File,
  label: string,
  opts: { now?: number; platform?: ImagePlatform } = {},
): Promise<{ ok: true; id: string } | { ok: false; message: string }> {
  const now = opts.now ?? Date.now()
  const check = checkImageFile(file)
  if (!check.ok) return check
  let image: Awaited<ReturnType<typeof processImage>>
  try {
    image = await processImage(file, { keepGps: false, platform: opts.platform })
  } catch (err) {
    return { ok: false, message: err instanceof Error ? err.message : 'Không xử lý được ảnh.' }
  }
  const id = crypto.randomUUID()
  const ext = image.type === 'image/webp' ? 'webp' : 'jpg'
  const item: OutboxItem = {
    id,
    kind: 'corner-photo',
    seq: nextSeq(now),
    createdAt: now,
    status: 'pending',
    attempts: 0,
    lastAttemptAt: null,
    nextAttemptAt: null,
    error: null,
    idempotencyKey: crypto.randomUUID(),
    blob: image.blob,
    fileName: `moc-${id.slice(0, 8)}.${ext}`,
    type: image.type,
    photo: {
      key: id,
      name: file.name,
      width: image.width,
      height: image.height,
      thumbnail: image.thumbnail,
      gps: null,
      position: 0,
    },
    label,
    uploadId: null,
  }
  await putItem(item)
  queuedForSending()
  return { ok: true, id }
}
