import { describe, expect, it } from 'vitest'
import { createStore } from 'jotai'
import type { ImagePlatform } from '../../lib/images/process.ts'
import { listItems } from '#core/outbox/queue.ts'
import { mirrorPhotos } from '../outbox/photo-bridge.ts'
import { listMarks, saveMark, type Mark } from './marks.ts'
import { queueMarkPhoto } from './photo.ts'

/** The browser's decoder and canvas, standing in: any file is a 4000 × 3000 photo. */
const platform: ImagePlatform = {
  decode: async () => ({ source: {} as CanvasImageSource, width: 4000, height: 3000, close: () => undefined }),
  encode: async (_i, _size, type) => new Blob([new Uint8Array(500)], { type }),
}

describe('a marker photo', () => {
  it('goes into the outbox as a corner photo with its own idempotency key, and the valuation form leaves it there', async () => {
    const out = await queueMarkPhoto(new File([new Uint8Array(2000)], 'moc.jpg', { type: 'image/jpeg' }), 'Góc 1', {
      platform,
    })
    if (!out.ok) throw new Error(out.message)
    // The valuation form's mirror removes photos it does not have; it must not take this one.
    const stop = mirrorPhotos(createStore())
    await new Promise((r) => setTimeout(r, 50))
    stop()
    const item = (await listItems()).find((i) => i.id === out.id)!
    expect(item).toMatchObject({ kind: 'corner-photo', status: 'pending', label: 'Góc 1', type: 'image/webp' })
    expect(item.photo).toMatchObject({ width: 2048, height: 1536 })
    expect(item.idempotencyKey).toMatch(/^[0-9a-f-]{36}$/)
  })

  it('refuses what is not an image, with the file named, and queues nothing', async () => {
    const before = (await listItems()).length
    const out = await queueMarkPhoto(new File(['x'], 'ghi-chu.txt', { type: 'text/plain' }), 'Góc 2', { platform })
    expect(out).toEqual({ ok: false, message: expect.stringContaining('"ghi-chu.txt" không phải là hình ảnh') })
    expect((await listItems()).length).toBe(before)
  })

  it('keeps a mark on the device with the photo’s queue id', async () => {
    const mark: Mark = {
      id: 'm1',
      parcelId: 'p',
      subject: 'Thửa 1, tờ 2',
      target: { x: 1, y: 2, meridian: 105.75, corner: 1, label: 'Góc 1' },
      status: 'lost',
      measured: null,
      note: '',
      photoId: 'q9',
      at: 1,
    }
    await saveMark(mark)
    expect(await listMarks()).toEqual([mark])
  })
})
