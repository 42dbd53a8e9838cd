import { nextSeq, type OutboxItem } from '#core/outbox/queue.ts'

/** A small queued photo named `name`, created at `at` (ms), with whatever the test changes in `patch`. */
export function photoOutboxItem(name: string, at: number, patch: Partial<OutboxItem> = {}): OutboxItem {
  return {
    id: `id-${name}`,
    kind: 'photo',
    seq: nextSeq(at),
    createdAt: at,
    status: 'pending',
    attempts: 0,
    lastAttemptAt: null,
    nextAttemptAt: null,
    error: null,
    idempotencyKey: `key-${name}`,
    blob: new Blob([name], { type: 'image/jpeg' }),
    fileName: `${name}.jpg`,
    type: 'image/jpeg',
    photo: { key: `id-${name}`, name: `${name}.jpg`, width: 10, height: 10, thumbnail: '', gps: null, position: 0 },
    label: 'Tờ 1, thửa 2',
    uploadId: null,
    ...patch,
  }
}
