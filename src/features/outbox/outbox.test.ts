import { beforeEach, describe, expect, it, vi } from 'vitest'
import { createStore } from 'jotai'
import { deviceStorageTexts } from '#core/messages.ts'
import { refuseStorage } from '../../../tests/support/refusing-storage.ts'
import { toastsAtom } from '../notifications/atoms.ts'
import { photosAtom } from '../valuation/atoms.ts'
import { newPhoto, removePhoto, type PhotoItem } from '../valuation/photos.ts'
import { mirrorPhotos, photoProgress, restorePhotos } from './photo-bridge.ts'
import { listItems, putItem, removeItem, retryItem, type OutboxItem } from '#core/outbox/queue.ts'
import { classifyFailure, flushOutbox, retryDelay, type SendOutcome, type Sender } from '#core/outbox/runner.ts'
import { workerSender } from '#core/outbox/worker-send.ts'
import { photoOutboxItem } from '../../../tests/support/outbox-item.ts'

let t0 = 1_800_000_000_000
function item(name: string, patch: Partial<OutboxItem> = {}): OutboxItem {
  return photoOutboxItem(name, (t0 += 1000), patch)
}

/** A server that records every attempt's idempotency key and answers as told. */
function server(
  answer: (name: string, attempt: number) => SendOutcome = (name) => ({ ok: true, uploadId: `u-${name}` }),
) {
  const calls: { name: string; key: string }[] = []
  const send: Sender = async (i) => {
    const name = i.fileName.replace('.jpg', '')
    calls.push({ name, key: i.idempotencyKey })
    return answer(name, calls.filter((c) => c.name === name).length)
  }
  return { send, calls }
}

const offline = (): SendOutcome => classifyFailure('Offline', 0, 'Không có kết nối mạng.')

beforeEach(async () => {
  for (const i of await listItems()) await removeItem(i.id)
})

describe('outbox queue', () => {
  it('sends the oldest first, one at a time, and marks each sent with the server id', async () => {
    await putItem(item('b'))
    await putItem(item('a', { seq: 1 }))
    await putItem(item('c'))
    const s = server()
    expect(await flushOutbox({ send: s.send })).toEqual({ sent: 3, failed: 0, waiting: 0 })
    expect(s.calls.map((c) => c.name)).toEqual(['a', 'b', 'c'])
    expect((await listItems()).map((i) => [i.status, i.uploadId])).toEqual([
      ['sent', 'u-a'],
      ['sent', 'u-b'],
      ['sent', 'u-c'],
    ])
  })

  it('sends the same idempotency key on every attempt of an item, so a retry is never a second copy', async () => {
    await putItem(item('a'))
    await putItem(item('b'))
    const s = server((name, attempt) =>
      name === 'a' && attempt === 1 ? offline() : { ok: true, uploadId: `u-${name}` },
    )
    expect(await flushOutbox({ send: s.send })).toEqual({ sent: 0, failed: 0, waiting: 2 })
    expect(await flushOutbox({ send: s.send })).toEqual({ sent: 2, failed: 0, waiting: 0 })
    expect(s.calls).toEqual([
      { name: 'a', key: 'key-a' },
      { name: 'a', key: 'key-a' },
      { name: 'b', key: 'key-b' },
    ])
    expect((await listItems()).map((i) => i.attempts)).toEqual([2, 1])
  })

  it('lets a refused item stand as an error without holding up the ones after it', async () => {
    await putItem(item('bad'))
    await putItem(item('good'))
    const s = server((name) =>
      name === 'bad' ? classifyFailure('UnsupportedMedia', 415, 'Ảnh không hợp lệ.') : { ok: true, uploadId: 'u-good' },
    )
    expect(await flushOutbox({ send: s.send })).toEqual({ sent: 1, failed: 1, waiting: 0 })
    const [bad] = await listItems()
    expect(bad).toMatchObject({ status: 'failed', error: 'Ảnh không hợp lệ.' })
    // A failed item is sent again only when the user asks.
    await flushOutbox({ send: s.send })
    expect(s.calls.filter((c) => c.name === 'bad')).toHaveLength(1)
    await retryItem(bad!.id)
    await flushOutbox({ send: s.send })
    expect(s.calls.filter((c) => c.name === 'bad')).toHaveLength(2)
  })

  it('waits longer after each server failure, unless the user asks to send now', async () => {
    await putItem(item('a'))
    const busy = () => classifyFailure('ServiceUnavailable', 503, 'Máy chủ bận.')
    const s = server(busy)
    const now = 2_000_000_000_000
    await flushOutbox({ send: s.send, now: () => now })
    const [waiting] = await listItems()
    expect(waiting!.nextAttemptAt).toBe(now + retryDelay(1))
    await flushOutbox({ send: s.send, now: () => now + 1000 })
    expect(s.calls).toHaveLength(1)
    await flushOutbox({ send: s.send, now: () => now + 1000, force: true })
    expect(s.calls).toHaveLength(2)
    expect(retryDelay(2)).toBe(2 * retryDelay(1))
  })

  it('sends nothing while offline and leaves an item someone else is sending alone', async () => {
    await putItem(item('a'))
    const s = server()
    expect(await flushOutbox({ send: s.send, isOnline: () => false })).toEqual({ sent: 0, failed: 0, waiting: 1 })
    expect(await flushOutbox({ send: s.send, busy: () => true })).toEqual({ sent: 0, failed: 0, waiting: 1 })
    expect(s.calls).toHaveLength(0)
  })

  it('takes up an item left half sent by a crash once it has been sending for too long', async () => {
    await putItem(item('a', { status: 'sending', lastAttemptAt: 1000, attempts: 1 }))
    const s = server()
    await flushOutbox({ send: s.send, now: () => 1000 + 30_000 })
    expect(s.calls).toHaveLength(0)
    await flushOutbox({ send: s.send, now: () => 1000 + 10 * 60_000 })
    expect(s.calls).toEqual([{ name: 'a', key: 'key-a' }])
  })

  it('sends again at once an item a reloaded page left sending, when the lock is shared by every sender', async () => {
    await putItem(item('a', { status: 'sending', lastAttemptAt: 1000, attempts: 1 }))
    const s = server()
    expect(
      await flushOutbox({ send: s.send, now: () => 1000 + 1000, lock: (run) => run(), lockSpansContexts: true }),
    ).toEqual({ sent: 1, failed: 0, waiting: 0 })
    expect(s.calls).toEqual([{ name: 'a', key: 'key-a' }])
  })
})

describe('failure classes', () => {
  it('retries without waiting for connection and login problems, with backoff for a busy server, never for a refused file', () => {
    expect(classifyFailure('Offline', 0, '')).toMatchObject({ retry: true, backoff: false })
    expect(classifyFailure('Unauthorized', 401, '')).toMatchObject({ retry: true, backoff: false })
    expect(classifyFailure('TooManyRequests', 429, '')).toMatchObject({ retry: true, backoff: true })
    expect(classifyFailure('ServiceUnavailable', 503, '')).toMatchObject({ retry: true, backoff: true })
    expect(classifyFailure('MaxFile', 413, '')).toMatchObject({ retry: false })
    expect(classifyFailure('Forbidden', 403, '')).toMatchObject({ retry: false })
  })

  it('sends from the worker with the Bearer token, the field images and the item key, and reads the envelope', async () => {
    const seen: { url: string; init: RequestInit }[] = []
    const fetch = async (url: RequestInfo | URL, init?: RequestInit) => {
      seen.push({ url: String(url), init: init! })
      return new Response(
        JSON.stringify({ message: 'Đã nhận ảnh.', meta: { code: 'Ok', status: 'OK' }, data: [{ id: 'up-1' }] }),
        { status: 201 },
      )
    }
    const send = workerSender({
      baseUrl: 'https://app.test',
      auth: { token: 'tok', expiresAt: '2099-01-01T00:00:00Z' },
      fetch: fetch as typeof globalThis.fetch,
    })
    expect(await send(item('a'), () => {})).toEqual({ ok: true, uploadId: 'up-1' })
    const req = seen[0]!
    const headers = new Headers(req.init.headers)
    expect(req.url).toBe('https://app.test/api/uploads')
    expect(req.init.method).toBe('POST')
    expect(headers.get('Authorization')).toBe('Bearer tok')
    expect(headers.get('Idempotency-Key')).toBe('key-a')
    expect(((req.init.body as FormData).get('images') as File).name).toBe('a.jpg')

    const html = async () => new Response('<html>502</html>', { status: 502 })
    const failing = workerSender({
      baseUrl: '',
      auth: { token: 't', expiresAt: '2099-01-01T00:00:00Z' },
      fetch: html as typeof globalThis.fetch,
    })
    expect(await failing(item('b'), () => {})).toMatchObject({ ok: false, retry: true, backoff: true })
  })
})

describe('valuation photos in the outbox', () => {
  const ready = (name: string): PhotoItem => ({
    ...newPhoto(`${name}.jpg`),
    status: 'ready',
    blob: new Blob([name], { type: 'image/jpeg' }),
    type: 'image/jpeg',
    width: 4,
    height: 3,
  })
  /** The queue's ids once the mirror has written what the form holds (it writes after the form changes). */
  const queuedIds = (ids: string[]) => vi.waitFor(async () => expect((await listItems()).map((i) => i.id)).toEqual(ids))

  it('queues each prepared photo with its key and puts the photos back on the form after a restart', async () => {
    const first = createStore()
    const stop = mirrorPhotos(first)
    const a = ready('a')
    const b = ready('b')
    first.set(photosAtom, [a, { ...newPhoto('c.jpg') }, b])
    await queuedIds([a.key, b.key])
    stop()
    const queued = await listItems()
    expect(queued.map((i) => [i.id, i.idempotencyKey, i.status])).toEqual([
      [a.key, a.idempotencyKey, 'pending'],
      [b.key, b.idempotencyKey, 'pending'],
    ])

    const reopened = createStore()
    await restorePhotos(reopened)
    expect(reopened.get(photosAtom).map((p) => [p.key, p.status, p.idempotencyKey])).toEqual([
      [a.key, 'ready', a.idempotencyKey],
      [b.key, 'ready', b.idempotencyKey],
    ])
  })

  it('removes a photo from the queue when it is removed from the form, and marks it sent when the queue sends it', async () => {
    const store = createStore()
    const a = ready('a')
    const b = ready('b')
    store.set(photosAtom, [a, b])
    const stop = mirrorPhotos(store)
    await queuedIds([a.key, b.key])
    store.set(photosAtom, (list) => removePhoto(list, a.key))
    await queuedIds([b.key])

    const s = server(() => ({ ok: true, uploadId: 'srv-b' }))
    await flushOutbox({ send: s.send, ...photoProgress(store) })
    expect(store.get(photosAtom)[0]).toMatchObject({ key: b.key, status: 'uploaded', uploadId: 'srv-b' })
    await vi.waitFor(async () => expect((await listItems())[0]).toMatchObject({ status: 'sent', uploadId: 'srv-b' }))
    stop()
  })

  it('tells the person when a prepared photo cannot be kept in the queue, and leaves it on the form', async () => {
    const store = createStore()
    const a = ready('a')
    const restore = refuseStorage('writes')
    try {
      const stop = mirrorPhotos(store)
      store.set(photosAtom, [a])
      await vi.waitFor(() =>
        expect(store.get(toastsAtom).map((t) => [t.title, t.color])).toEqual([
          [deviceStorageTexts.OUTBOX_NOT_SAVED, 'red'],
        ]),
      )
      stop()
    } finally {
      restore()
    }
    expect(store.get(photosAtom).map((p) => [p.key, p.status])).toEqual([[a.key, 'ready']])
    expect(await listItems()).toEqual([])
  })
})
