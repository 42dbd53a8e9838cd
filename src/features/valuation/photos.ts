import type { GpsPoint } from '../../lib/images/exif-gps.ts'

export type PhotoStatus = 'processing' | 'ready' | 'uploading' | 'uploaded' | 'failed'

/**
 * One attached photo. Everything in it can be stored in IndexedDB as is (the image is a Blob, no
 * object URLs), so photos waiting for a connection can be kept across a restart.
 */
export type PhotoItem = {
  /** Local id, also the React key. */
  key: string
  name: string
  status: PhotoStatus
  /** The re-encoded image; null while it is being prepared. */
  blob: Blob | null
  type: string
  width: number
  height: number
  /** Small JPEG data URL for the report and the history. */
  thumbnail: string
  gps: GpsPoint | null
  /** Sent with every attempt to upload this photo, so a retry never stores it twice. */
  idempotencyKey: string
  /** 0..1 of the upload body sent. */
  progress: number
  /** The server's id once uploaded. */
  uploadId: string | null
  error: string | null
}

export function newPhoto(name: string): PhotoItem {
  return {
    key: crypto.randomUUID(),
    name,
    status: 'processing',
    blob: null,
    type: '',
    width: 0,
    height: 0,
    thumbnail: '',
    gps: null,
    idempotencyKey: crypto.randomUUID(),
    progress: 0,
    uploadId: null,
    error: null,
  }
}

/** Moves a photo one place earlier (-1) or later (+1); the list is unchanged at either end. */
export function movePhoto(list: readonly PhotoItem[], key: string, delta: -1 | 1): PhotoItem[] {
  const from = list.findIndex((p) => p.key === key)
  const to = from + delta
  if (from < 0 || to < 0 || to >= list.length) return [...list]
  const next = [...list]
  ;[next[from], next[to]] = [next[to]!, next[from]!]
  return next
}

export function updatePhoto(list: readonly PhotoItem[], key: string, patch: Partial<PhotoItem>): PhotoItem[] {
  return list.map((p) => (p.key === key ? { ...p, ...patch } : p))
}

export function removePhoto(list: readonly PhotoItem[], key: string): PhotoItem[] {
  return list.filter((p) => p.key !== key)
}

/** Photos that still need sending: prepared but not uploaded (a failed one is retried with its key). */
export function photosToUpload(list: readonly PhotoItem[]): PhotoItem[] {
  return list.filter((p) => p.blob !== null && (p.status === 'ready' || p.status === 'failed'))
}
