import type { Store } from '../../lib/store.ts'
import { draftAtom, photosAtom } from '../valuation/index.ts'
import { updatePhoto, type PhotoItem } from '../valuation/index.ts'
import { uploadName } from '../valuation/index.ts'
import { listItems, nextSeq, putItem, removeItem, updateItem, type OutboxItem } from '#core/outbox/queue.ts'
import { deviceStorageTexts } from '#core/messages.ts'
import { pushToast } from '../notifications/index.ts'
import type { SendOutcome } from '#core/outbox/runner.ts'

/**
 * Keeps the valuation form's photos (photosAtom, in memory) and the outbox (IndexedDB) in step: each
 * prepared photo is queued with its Blob, form data and idempotency key as soon as it exists, removed
 * when the user removes it, and put back on the form when the app opens again. The queue is what
 * survives; the form shows it.
 */

/** A prepared photo as a queue item (a photo still being prepared has no image yet and is not queued). */
export function photoToItem(photo: PhotoItem, position: number, label: string | null, now: number): OutboxItem | null {
  if (!photo.blob) return null
  const sent = photo.status === 'uploaded' && photo.uploadId !== null
  return {
    id: photo.key,
    kind: 'photo',
    seq: nextSeq(now),
    createdAt: now,
    status: sent ? 'sent' : 'pending',
    attempts: 0,
    lastAttemptAt: null,
    nextAttemptAt: null,
    error: null,
    idempotencyKey: photo.idempotencyKey,
    blob: photo.blob,
    fileName: uploadName(photo.name, photo.type),
    type: photo.type,
    photo: {
      key: photo.key,
      name: photo.name,
      width: photo.width,
      height: photo.height,
      thumbnail: photo.thumbnail,
      gps: photo.gps,
      position,
    },
    label,
    uploadId: sent ? photo.uploadId : null,
  }
}

/** The form's photo for a queue item, as it stands in the queue. */
export function itemToPhoto(item: OutboxItem): PhotoItem {
  const status = item.status === 'sent' ? 'uploaded' : item.status === 'failed' ? 'failed' : 'ready'
  return {
    key: item.photo.key,
    name: item.photo.name,
    status,
    blob: item.blob,
    type: item.type,
    width: item.photo.width,
    height: item.photo.height,
    thumbnail: item.photo.thumbnail,
    gps: item.photo.gps,
    idempotencyKey: item.idempotencyKey,
    progress: status === 'uploaded' ? 1 : 0,
    uploadId: item.uploadId,
    error: item.status === 'failed' ? item.error : null,
  }
}

/** Puts the queued photos back on the form (app opened again), in their order, after any already there. */
export async function restorePhotos(store: Store): Promise<void> {
  const items = (await listItems())
    .filter((i) => i.kind === 'photo')
    .sort((a, b) => a.photo.position - b.photo.position)
  if (items.length === 0) return
  store.set(photosAtom, (list) => {
    const have = new Set(list.map((p) => p.key))
    return [...list, ...items.filter((i) => !have.has(i.photo.key)).map(itemToPhoto)]
  })
}

type Seen = { status: PhotoItem['status']; position: number; hasBlob: boolean }

/**
 * Writes every relevant change of the form's photos to the queue (new, moved, uploaded by the form
 * itself, removed). Progress ticks are not written. Returns the unsubscribe function.
 */
export function mirrorPhotos(store: Store, opts: { now?: () => number; onQueued?: () => void } = {}): () => void {
  const now = opts.now ?? Date.now
  let seen = new Map<string, Seen>()
  let chain: Promise<unknown> = Promise.resolve()

  async function sync(photos: PhotoItem[], before: Map<string, Seen>) {
    const items = new Map((await listItems()).filter((i) => i.kind === 'photo').map((i) => [i.id, i]))
    const label = store.get(draftAtom).place?.label ?? null
    let queued = false
    for (const [position, photo] of photos.entries()) {
      const was = before.get(photo.key)
      if (
        was &&
        was.status === photo.status &&
        was.position === position &&
        was.hasBlob === (photo.blob !== null) &&
        items.has(photo.key)
      )
        continue
      const item = items.get(photo.key)
      if (!item) {
        const fresh = photoToItem(photo, position, label, now())
        if (fresh) {
          await putItem(fresh)
          queued ||= fresh.status === 'pending'
        }
        continue
      }
      const sentByForm = photo.status === 'uploaded' && photo.uploadId !== null && item.status !== 'sent'
      await updateItem(item.id, {
        photo: { ...item.photo, position },
        ...(sentByForm ? { status: 'sent' as const, uploadId: photo.uploadId, error: null, nextAttemptAt: null } : {}),
      })
    }
    const keys = new Set(photos.map((p) => p.key))
    for (const id of items.keys()) if (!keys.has(id)) await removeItem(id)
    if (queued) opts.onQueued?.()
  }

  const onChange = () => {
    const photos = store.get(photosAtom)
    const before = seen
    seen = new Map(photos.map((p, position) => [p.key, { status: p.status, position, hasBlob: p.blob !== null }]))
    chain = chain
      .then(() => sync(photos, before))
      .catch(() => pushToast(store, 'error', deviceStorageTexts.OUTBOX_NOT_SAVED))
  }
  const stop = store.sub(photosAtom, onChange)
  onChange()
  return stop
}

/** The queue's own sending, shown on the form's photo tiles. */
export function photoProgress(store: Store) {
  return {
    /** A photo the form is uploading itself is left to it. */
    busy: (item: OutboxItem) => store.get(photosAtom).some((p) => p.key === item.id && p.status === 'uploading'),
    onStart: (item: OutboxItem) =>
      store.set(photosAtom, (list) => updatePhoto(list, item.id, { status: 'uploading', progress: 0, error: null })),
    onProgress: (item: OutboxItem, share: number) =>
      store.set(photosAtom, (list) => updatePhoto(list, item.id, { progress: share })),
    onDone: (item: OutboxItem, outcome: SendOutcome) =>
      store.set(photosAtom, (list) =>
        updatePhoto(
          list,
          item.id,
          outcome.ok
            ? { status: 'uploaded', progress: 1, uploadId: outcome.uploadId, error: null }
            : outcome.retry
              ? { status: 'ready', progress: 0 }
              : { status: 'failed', progress: 0, error: outcome.message },
        ),
      ),
  }
}

/** Photos the service worker sent while the form was open: shown as uploaded with their server id. */
export async function applySentItems(store: Store): Promise<void> {
  const sent = new Map(
    (await listItems()).filter((i) => i.status === 'sent' && i.uploadId).map((i) => [i.id, i.uploadId!]),
  )
  store.set(photosAtom, (list) =>
    list.some((p) => sent.has(p.key) && p.status !== 'uploaded')
      ? list.map((p) =>
          sent.has(p.key) && p.status !== 'uploaded'
            ? { ...p, status: 'uploaded' as const, progress: 1, uploadId: sent.get(p.key)!, error: null }
            : p,
        )
      : list,
  )
}
