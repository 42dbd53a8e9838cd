import { randomUUID } from 'node:crypto'
import { readdirSync } from 'node:fs'
import { connect } from 'node:net'
import { join } from 'node:path'
import { crc32 } from 'node:zlib'
import { serve, type ServerType } from '@hono/node-server'
import { Hono } from 'hono'
import sharp from 'sharp'
import { beforeAll, describe, expect, it } from 'vitest'
import { createTestUser, depsOf, type TestUser } from '../../accounts/test-user.ts'
import type { AppEnv } from '../../deps.ts'
import { fail } from '../../http/envelope.ts'
import { DomainError } from '../../domain-errors.ts'
import { ApiError, apiErrorOf } from '../../http/errors.ts'
import { photoDecoding, processImages } from '../../uploads/image.ts'
import { uploadLimits } from '../../uploads/multipart.ts'
import { diskStorage } from '../../uploads/storage.ts'
import { createTestApp, type TestApp } from '../../testing/test-app.ts'
import { uploadRoutes } from './routes.ts'
import type { UploadOptions } from './handlers.ts'
import { encodeForm, form, photo, pixelAt, sidewaysJpegWithGps, withJpegComment, type Part } from './test-images.ts'

let t: TestApp
let alice: TestUser
let bob: TestUser
beforeAll(async () => {
  t = await createTestApp()
  alice = await createTestUser(t)
  bob = await createTestUser(t)
})

async function upload(parts: Part[], opts: { token?: string; key?: string; app?: TestApp } = {}) {
  const { body, contentType } = await form(parts)
  const headers: Record<string, string> = { 'content-type': contentType }
  if (opts.key !== undefined) headers['Idempotency-Key'] = opts.key
  return (opts.app ?? t).request('/api/uploads', { method: 'POST', body, token: opts.token ?? alice.token, headers })
}

/** An upload request to a bare Hono app (see customApp). */
async function uploadRequest(parts: Part[], token: string): Promise<RequestInit> {
  const { body, contentType } = await form(parts)
  return { method: 'POST', body, headers: { authorization: `Bearer ${token}`, 'content-type': contentType } }
}

async function fetchImage(path: string, token: string) {
  const res = await t.app.request(path, { headers: { authorization: `Bearer ${token}` } })
  return { res, bytes: Buffer.from(await res.arrayBuffer()) }
}

/** Every regular file under `dir`, temporaries included. */
function filesUnder(dir: string): string[] {
  try {
    return readdirSync(dir, { recursive: true, withFileTypes: true })
      .filter((d) => d.isFile())
      .map((d) => join(d.parentPath, d.name))
  } catch {
    return []
  }
}

/** The upload routes alone, with their own storage or limits, answering errors the way app.ts does. */
function customApp(opts: Partial<UploadOptions>) {
  return new Hono<AppEnv>().route('/api/uploads', uploadRoutes(depsOf(t), opts)).onError((thrown, c) => {
    const err = thrown instanceof DomainError ? apiErrorOf(thrown) : thrown
    if (err instanceof ApiError) return fail(c, err.code, err.message, { errors: err.errors, headers: err.headers })
    return fail(c, 'InternalServerError')
  })
}

const boundary = 'ranh-gioi-thu'
const encoder = new TextEncoder()
const preamble = (name: string) =>
  encoder.encode(
    `--${boundary}\r\nContent-Disposition: form-data; name="${name}"; filename="a.jpg"\r\nContent-Type: image/jpeg\r\n\r\n`,
  )

/** A POST whose body the test feeds by hand; `pulled` counts the bytes the server asked for. */
function streamedRequest(
  token: string,
  next: (controller: ReadableStreamDefaultController<Uint8Array>) => void | Promise<void>,
) {
  const state = { pulled: 0 }
  const body = new ReadableStream<Uint8Array>(
    {
      async pull(controller) {
        await next(controller)
      },
    },
    { highWaterMark: 0 },
  )
  // Read only as the server reads (a pipe would take the first chunk at once): a chunk asked for means the
  // server is reading this upload's body, so it has counted the upload by then.
  const reader = body.getReader()
  const counted = new ReadableStream<Uint8Array>(
    {
      async pull(controller) {
        const { done, value } = await reader.read()
        if (done) return controller.close()
        state.pulled += value.byteLength
        controller.enqueue(value)
      },
    },
    { highWaterMark: 0 },
  )
  const request = new Request('http://localhost/api/uploads', {
    method: 'POST',
    body: counted,
    duplex: 'half',
    headers: { authorization: `Bearer ${token}`, 'content-type': `multipart/form-data; boundary=${boundary}` },
  } as RequestInit)
  return { request, state }
}

describe('POST /api/uploads', () => {
  it('accepts a real PNG, JPEG and WebP and answers 201 with the id, url, width, height and size of each', async () => {
    const res = await upload([
      { bytes: await photo('png', 64, 48), filename: 'a.png' },
      { bytes: await photo('jpeg', 120, 90) },
      { bytes: await photo('webp', 33, 77), filename: 'c.webp' },
    ])
    expect(res.status).toBe(201)
    expect(res.body.meta).toEqual({ code: 'Ok', status: 'OK' })
    expect(res.body.data.map((d: { width: number; height: number }) => [d.width, d.height])).toEqual([
      [64, 48],
      [120, 90],
      [33, 77],
    ])
    for (const item of res.body.data) {
      expect(item.id).toMatch(/^[A-Za-z0-9_-]{22}$/)
      expect(item.url).toBe(`/api/uploads/${item.id}`)
      const { res: img, bytes } = await fetchImage(item.url, alice.token)
      expect(img.status).toBe(200)
      expect(bytes.length).toBe(item.bytes)
      const meta = await sharp(bytes).metadata()
      expect([meta.format, meta.width, meta.height]).toEqual(['jpeg', item.width, item.height])
    }
  })

  it('serves the image to its owner with its real type, inline disposition, nosniff and never kept in the HTTP cache', async () => {
    const res = await upload([{ bytes: await photo('jpeg', 50, 40) }])
    const id = res.body.data[0].id as string
    const { res: img } = await fetchImage(`/api/uploads/${id}`, alice.token)
    expect(img.headers.get('content-type')).toBe('image/jpeg')
    expect(img.headers.get('content-disposition')).toBe(`inline; filename="${id}.jpg"`)
    expect(img.headers.get('x-content-type-options')).toBe('nosniff')
    // On a shared phone the browser's cache would keep it after logout; the app's own copy is in IndexedDB.
    expect(img.headers.get('cache-control')).toBe('private, no-store')
  })

  it('keeps the transparency of a PNG by storing it as WebP', async () => {
    const res = await upload([{ bytes: await photo('png', 40, 30, { alpha: true }), filename: 'logo.png' }])
    expect(res.status).toBe(201)
    const id = res.body.data[0].id as string
    const { res: img, bytes } = await fetchImage(`/api/uploads/${id}`, alice.token)
    expect(img.headers.get('content-type')).toBe('image/webp')
    expect(img.headers.get('content-disposition')).toBe(`inline; filename="${id}.webp"`)
    expect((await sharp(bytes).metadata()).hasAlpha).toBe(true)
  })

  it('shrinks a large photo to at most 2048 px and serves a thumbnail of at most 320 px', async () => {
    const res = await upload([{ bytes: await photo('jpeg', 3000, 1000) }])
    expect(res.status).toBe(201)
    expect(res.body.data[0]).toMatchObject({ width: 2048, height: 683 })
    const { res: thumb, bytes } = await fetchImage(`${res.body.data[0].url}/thumb`, alice.token)
    expect(thumb.status).toBe(200)
    expect(thumb.headers.get('content-type')).toBe('image/jpeg')
    const meta = await sharp(bytes).metadata()
    expect([meta.width, meta.height]).toEqual([320, 106])
  })

  it('turns a sideways camera photo upright by its EXIF orientation', async () => {
    const res = await upload([{ bytes: await sidewaysJpegWithGps() }])
    expect(res.status).toBe(201)
    // Stored 60×40 with orientation 6: shown 40×60, the red top band now on the right.
    expect(res.body.data[0]).toMatchObject({ width: 40, height: 60 })
    const { bytes } = await fetchImage(res.body.data[0].url, alice.token)
    const [lr, , lb] = await pixelAt(bytes, 5, 30)
    const [rr, , rb] = await pixelAt(bytes, 35, 30)
    expect(lb).toBeGreaterThan(200)
    expect(lr).toBeLessThan(50)
    expect(rr).toBeGreaterThan(200)
    expect(rb).toBeLessThan(50)
  })

  it('strips EXIF, GPS position and every other metadata from the stored image and its thumbnail', async () => {
    const original = await sidewaysJpegWithGps()
    const before = await sharp(original).metadata()
    expect(before.exif).toBeDefined()
    expect(original.includes('GHI-CHU-BI-MAT')).toBe(true)
    const res = await upload([{ bytes: original }])
    for (const path of [res.body.data[0].url, `${res.body.data[0].url}/thumb`]) {
      const { bytes } = await fetchImage(path, alice.token)
      const meta = await sharp(bytes).metadata()
      expect(meta.exif).toBeUndefined()
      expect(meta.xmp).toBeUndefined()
      expect(meta.iptc).toBeUndefined()
      expect(meta.orientation).toBeUndefined()
      expect(bytes.includes('GHI-CHU-BI-MAT')).toBe(false)
      expect(bytes.includes('Exif')).toBe(false)
    }
  })

  it('answers 415 for a text file renamed to .jpg and declared image/jpeg', async () => {
    const res = await upload([
      { bytes: encoder.encode('Xin chào, đây không phải ảnh.\n'), filename: 'anh.jpg', type: 'image/jpeg' },
    ])
    expect(res.status).toBe(415)
    expect(res.body.meta).toEqual({ code: 'UnsupportedMedia', status: 'NG' })
    expect(res.body.message).toMatch(/JPEG, PNG hoặc WebP/)
  })

  it('answers 415 for a truncated JPEG, PNG and WebP whose headers still read fine', async () => {
    for (const format of ['jpeg', 'png', 'webp'] as const) {
      const whole = await photo(format, 200, 150)
      const res = await upload([{ bytes: whole.subarray(0, Math.floor(whole.length * 0.8)) }])
      expect(res.status, format).toBe(415)
      expect(res.body.meta.code).toBe('UnsupportedMedia')
    }
  })

  it('answers 415 when the magic bytes say PNG but the rest is not a PNG', async () => {
    const fake = Buffer.concat([
      Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]),
      await photo('jpeg', 20, 20),
    ])
    const res = await upload([{ bytes: fake, filename: 'x.png' }])
    expect(res.status).toBe(415)
  })

  it('refuses the whole request with 415 when one of several files is not an image, storing none of them', async () => {
    const dir = join(t.config.dataDir, 'uploads')
    const before = filesUnder(dir).length
    const res = await upload([{ bytes: await photo('jpeg', 30, 30) }, { bytes: encoder.encode('<html></html>') }])
    expect(res.status).toBe(415)
    expect(res.body.errors.images).toEqual(['Tệp thứ 2: Tệp không phải ảnh JPEG, PNG hoặc WebP hợp lệ.'])
    expect(filesUnder(dir).length).toBe(before)
  })

  it('re-encodes a polyglot JPEG so that neither its comment nor its appended script and HTML survive', async () => {
    const payload = '<script>alert("polyglot")</script><html><body onload="steal()">'
    const polyglot = Buffer.concat([withJpegComment(await photo('jpeg', 80, 60), payload), Buffer.from(payload)])
    expect(await sharp(polyglot).metadata()).toMatchObject({ format: 'jpeg', width: 80 })
    const res = await upload([{ bytes: polyglot, filename: 'anh.html' }])
    expect(res.status).toBe(201)
    for (const path of [res.body.data[0].url, `${res.body.data[0].url}/thumb`]) {
      const { bytes } = await fetchImage(path, alice.token)
      const text = bytes.toString('latin1').toLowerCase()
      for (const trace of ['<script', 'alert', 'polyglot', '<html', 'onload', 'steal'])
        expect(text).not.toContain(trace)
    }
  })

  it('answers 413 MaxFile naming the 10 MB limit for an 11 MB file', async () => {
    const big = Buffer.alloc(11 * 1024 * 1024, 7)
    big.set([0xff, 0xd8, 0xff, 0xe0])
    const res = await upload([{ bytes: big }])
    expect(res.status).toBe(413)
    expect(res.body.meta.code).toBe('MaxFile')
    expect(res.body.message).toBe('Mỗi ảnh tối đa 10 MB.')
  })

  it('answers 413 without decoding a small PNG whose header claims 400 megapixels', async () => {
    const bomb = Buffer.from(await photo('png', 10, 10))
    // IHDR width and height, then its CRC so the header itself stays valid.
    bomb.writeUInt32BE(20_000, 16)
    bomb.writeUInt32BE(20_000, 20)
    bomb.writeUInt32BE(crc32(bomb.subarray(12, 29)), 29)
    const res = await upload([{ bytes: bomb, filename: 'bom.png' }])
    expect(res.status).toBe(413)
    expect(res.body.meta.code).toBe('MaxFile')
    expect(res.body.message).toMatch(/megapixel/)
  })

  it('answers 413 without decoding a photo whose header claims just over 40 megapixels', async () => {
    const bomb = Buffer.from(await photo('png', 10, 10))
    bomb.writeUInt32BE(7_000, 16)
    bomb.writeUInt32BE(6_000, 20)
    bomb.writeUInt32BE(crc32(bomb.subarray(12, 29)), 29)
    const res = await upload([{ bytes: bomb, filename: 'bom.png' }])
    expect(res.status).toBe(413)
    expect(res.body.message).toMatch(/tối đa 40 megapixel/)
  })

  it('answers 413 with exactly "Tối đa 4 hình ảnh." for five files', async () => {
    const one = await photo('jpeg', 20, 20)
    const res = await upload(Array.from({ length: 5 }, () => ({ bytes: one })))
    expect(res.status).toBe(413)
    expect(res.body.meta.code).toBe('MaxFile')
    expect(res.body.message).toBe('Tối đa 4 hình ảnh.')
  })

  it('accepts exactly four files', async () => {
    const one = await photo('jpeg', 20, 20)
    const res = await upload(Array.from({ length: 4 }, () => ({ bytes: one })))
    expect(res.status).toBe(201)
    expect(res.body.data).toHaveLength(4)
    expect(new Set(res.body.data.map((d: { id: string }) => d.id)).size).toBe(4)
  })

  it('answers 400 with errors.images for an empty multipart body', async () => {
    const { body, contentType } = await encodeForm(new FormData())
    const res = await t.request('/api/uploads', {
      method: 'POST',
      body,
      token: alice.token,
      headers: { 'content-type': contentType },
    })
    expect(res.status).toBe(400)
    expect(res.body.meta.code).toBe('BadRequest')
    expect(res.body.errors.images).toHaveLength(1)
  })

  it('answers 400 with errors.images when the files come under another field name', async () => {
    const res = await upload([{ bytes: await photo('jpeg', 20, 20), name: 'image' }])
    expect(res.status).toBe(400)
    expect(res.body.errors.images).toHaveLength(1)
  })

  it('answers 400 with errors.images when images is a text field, not a file', async () => {
    const fd = new FormData()
    fd.append('images', 'khong-phai-tep')
    const { body, contentType } = await encodeForm(fd)
    const res = await t.request('/api/uploads', {
      method: 'POST',
      body,
      token: alice.token,
      headers: { 'content-type': contentType },
    })
    expect(res.status).toBe(400)
    expect(res.body.errors.images).toHaveLength(1)
  })

  it('answers 400 for a JSON body and for a body with no content type', async () => {
    const json = await t.request('/api/uploads', { method: 'POST', json: { images: [] }, token: alice.token })
    expect(json.status).toBe(400)
    expect(json.body.meta.code).toBe('BadRequest')
    const bare = await t.request('/api/uploads', { method: 'POST', token: alice.token })
    expect(bare.status).toBe(400)
  })

  it('answers 400 for a multipart body cut off before its closing boundary', async () => {
    const head = preamble('images')
    const body = Buffer.concat([head, await photo('jpeg', 20, 20)])
    const res = await t.request('/api/uploads', {
      method: 'POST',
      body,
      token: alice.token,
      headers: { 'content-type': `multipart/form-data; boundary=${boundary}` },
    })
    expect(res.status).toBe(400)
    expect(res.body.meta.code).toBe('BadRequest')
  })

  it('answers 401 without a token, before looking at the body', async () => {
    const { body, contentType } = await form([{ bytes: await photo('jpeg', 20, 20) }])
    const res = await t.request('/api/uploads', { method: 'POST', body, headers: { 'content-type': contentType } })
    expect(res.status).toBe(401)
    expect(res.body.meta.code).toBe('Unauthorized')
  })

  it('answers 400 naming Idempotency-Key when the key holds spaces or runs past 255 characters', async () => {
    for (const key of ['hai tu', 'k'.repeat(256)]) {
      const res = await upload([{ bytes: await photo('jpeg', 20, 20) }], { key })
      expect(res.status).toBe(400)
      expect(res.body.errors['Idempotency-Key']).toHaveLength(1)
    }
  })

  it('answers a retry with the same Idempotency-Key with the first answer and records the photos once', async () => {
    const key = `thu-lai-${randomUUID()}`
    const parts = [{ bytes: await photo('jpeg', 30, 20) }, { bytes: await photo('png', 20, 30) }]
    const first = await upload(parts, { key })
    const again = await upload(parts, { key })
    expect(first.status).toBe(201)
    expect(again.status).toBe(201)
    expect(again.body.data).toEqual(first.body.data)
    const rows = await t.db.query<{ n: number }>(
      'select count(*)::int as n from uploads where user_id = $1 and idempotency_key = $2',
      [alice.id, key],
    )
    expect(rows[0]?.n).toBe(2)
  })

  it('answers 409 Conflict when the same account reuses an Idempotency-Key for other photos, recording nothing more', async () => {
    const key = `khac-anh-${randomUUID()}`
    const mine = await photo('jpeg', 30, 20)
    const first = await upload([{ bytes: mine }], { key })
    expect(first.status).toBe(201)
    const other = await upload([{ bytes: await photo('jpeg', 30, 20) }], { key })
    expect(other.status).toBe(409)
    expect(other.body.meta.code).toBe('Conflict')
    const more = await upload([{ bytes: mine }, { bytes: await photo('png', 20, 30) }], { key })
    expect(more.status).toBe(409)
    const rows = await t.db.query<{ n: number }>(
      'select count(*)::int as n from uploads where user_id = $1 and idempotency_key = $2',
      [alice.id, key],
    )
    expect(rows[0]?.n).toBe(1)
    // The same photo again is still the retry it always was.
    const again = await upload([{ bytes: mine }], { key })
    expect([again.status, again.body.data]).toEqual([201, first.body.data])
  })

  it('keeps Idempotency-Keys apart per account', async () => {
    const key = `chung-${randomUUID()}`
    const parts = [{ bytes: await photo('jpeg', 30, 20) }]
    const a = await upload(parts, { key, token: alice.token })
    const b = await upload(parts, { key, token: bob.token })
    expect(b.status).toBe(201)
    expect(b.body.data[0].id).not.toBe(a.body.data[0].id)
    expect((await fetchImage(b.body.data[0].url, bob.token)).res.status).toBe(200)
  })

  it('lets only one of three concurrent retries record photos and gives all three the same answer, leaving no stray files', async () => {
    // Three at once from one account: more than its share of uploads in progress unless raised.
    const app = await createTestApp({ UPLOADS_PER_ACCOUNT: '3' })
    const user = await createTestUser(app)
    const key = `dong-thoi-${randomUUID()}`
    const parts = [{ bytes: await photo('jpeg', 30, 20) }]
    const answers = await Promise.all([1, 2, 3].map(() => upload(parts, { key, token: user.token, app })))
    expect(answers.map((a) => a.status)).toEqual([201, 201, 201])
    const ids = answers.map((a) => a.body.data[0].id)
    expect(new Set(ids).size).toBe(1)
    const rows = await app.db.query<{ n: number }>('select count(*)::int as n from uploads where user_id = $1', [
      user.id,
    ])
    expect(rows[0]?.n).toBe(1)
    // One image and one thumbnail: the losers' objects were deleted again.
    expect(filesUnder(join(app.config.dataDir, 'uploads'))).toHaveLength(2)
  })

  it('answers 503 with a clear message when the disk fills up while writing, and leaves no half file and no row', async () => {
    const root = join(t.config.dataDir, `full-${randomUUID()}`)
    const fullDisk = diskStorage(root, async (file, bytes) => {
      await file.write(bytes.subarray(0, Math.floor(bytes.length / 2)))
      throw Object.assign(new Error('ENOSPC: no space left on device, write'), { code: 'ENOSPC' })
    })
    const app = customApp({ storage: fullDisk })
    const user = await createTestUser(t)
    const res = await app.request(
      '/api/uploads',
      await uploadRequest([{ bytes: await photo('jpeg', 30, 30) }], user.token),
    )
    expect(res.status).toBe(503)
    const body = await res.json()
    expect(body.meta.code).toBe('ServiceUnavailable')
    expect(body.message).toBe('Máy chủ đã hết chỗ lưu ảnh. Ảnh chưa được lưu, vui lòng thử lại sau.')
    expect(res.headers.get('retry-after')).toBe('60')
    expect(filesUnder(root)).toEqual([])
    const rows = await t.db.query<{ n: number }>('select count(*)::int as n from uploads where user_id = $1', [user.id])
    expect(rows[0]?.n).toBe(0)
  })
})

describe('limits on how the body arrives', () => {
  it('answers 413 to a declared Content-Length over the limit without waiting for a single body byte', async () => {
    const server: ServerType = await new Promise((resolve) => {
      const s = serve({ fetch: t.app.fetch, port: 0, hostname: '127.0.0.1' }, () => resolve(s))
    })
    try {
      const address = server.address()
      const port = typeof address === 'object' && address ? address.port : 0
      const raw = await new Promise<string>((resolve, reject) => {
        const socket = connect(port, '127.0.0.1', () => {
          socket.write(
            [
              'POST /api/uploads HTTP/1.1',
              'Host: localhost',
              `Authorization: Bearer ${alice.token}`,
              `Content-Type: multipart/form-data; boundary=${boundary}`,
              'Content-Length: 1000000000',
              '',
              '',
            ].join('\r\n'),
          )
        })
        let text = ''
        socket.on('data', (d) => {
          text += d.toString('utf8')
          // Headers and the whole JSON envelope are in: enough, the body was never sent.
          if (/\r\n\r\n\{.*\}$/s.test(text)) {
            socket.destroy()
            resolve(text)
          }
        })
        socket.on('error', reject)
        socket.on('close', () => resolve(text))
      })
      expect(raw).toMatch(/^HTTP\/1\.1 413 /)
      const body = JSON.parse(raw.slice(raw.indexOf('\r\n\r\n') + 4))
      expect(body.meta.code).toBe('MaxFile')
      expect(body.message).toMatch(/41 MB/)
    } finally {
      await new Promise((resolve) => server.close(resolve))
    }
  })

  it('stops reading a body without Content-Length as soon as it grows past the limit', async () => {
    const chunk = new Uint8Array(1024 * 1024)
    let sent = 0
    const { request, state } = streamedRequest(alice.token, (controller) => {
      // A file under a name that is not read, so only the running total can stop it.
      controller.enqueue(sent === 0 ? preamble('khac') : chunk)
      sent++
    })
    const res = await t.app.request(request)
    expect(res.status).toBe(413)
    expect((await res.json()).meta.code).toBe('MaxFile')
    expect(state.pulled).toBeGreaterThan(uploadLimits.maxBodyBytes)
    expect(state.pulled).toBeLessThan(uploadLimits.maxBodyBytes + 3 * chunk.length)
  })

  it('answers 400 to an upload that stops arriving once its time limit passes', async () => {
    const app = customApp({ limits: { ...uploadLimits, timeoutMs: 200 } })
    let sent = false
    const { request } = streamedRequest(alice.token, async (controller) => {
      if (!sent) {
        sent = true
        controller.enqueue(preamble('images'))
        return
      }
      // The client goes quiet and never sends the rest.
      await new Promise(() => {})
    })
    const res = await app.request(request)
    expect(res.status).toBe(400)
    const body = await res.json()
    expect(body.meta.code).toBe('BadRequest')
    expect(body.message).toMatch(/quá lâu/)
  })

  it('answers 503 with Retry-After when more uploads arrive at once than the server takes', async () => {
    const app = customApp({ maxInFlight: 1 })
    let release: () => void = () => {}
    let started: () => void = () => {}
    const isStarted = new Promise<void>((resolve) => (started = resolve))
    const { request: slow } = streamedRequest(alice.token, async (controller) => {
      started()
      await new Promise<void>((resolve) => (release = resolve))
      controller.close()
    })
    const pending = app.request(slow)
    await isStarted
    const second = await app.request(
      '/api/uploads',
      await uploadRequest([{ bytes: await photo('jpeg', 20, 20) }], alice.token),
    )
    expect(second.status).toBe(503)
    expect(second.headers.get('retry-after')).toBe('5')
    release()
    // The first one ends without a closing boundary: a malformed form, answered, not hung.
    expect((await pending).status).toBe(400)
    const third = await app.request(
      '/api/uploads',
      await uploadRequest([{ bytes: await photo('jpeg', 20, 20) }], alice.token),
    )
    expect(third.status).toBe(201)
  })
})

describe('uploads from one account beside everyone else’s', () => {
  /** An upload whose body starts and then waits; `release` lets it end (as a cut-off form). */
  async function stalled(token: string, app: ReturnType<typeof customApp>) {
    let release: () => void = () => {}
    let started: () => void = () => {}
    const isStarted = new Promise<void>((resolve) => (started = resolve))
    const { request } = streamedRequest(token, async (controller) => {
      started()
      await new Promise<void>((resolve) => (release = resolve))
      controller.close()
    })
    const answer = app.request(request)
    await isStarted
    return { answer, release: () => release() }
  }

  it('keeps slots for other accounts: one account past its share answers 429, another account’s upload goes through', async () => {
    const app = customApp({ maxInFlight: 3, maxPerAccount: 2 })
    const slow = [await stalled(alice.token, app), await stalled(alice.token, app)]
    try {
      const third = await app.request(
        '/api/uploads',
        await uploadRequest([{ bytes: await photo('jpeg', 20, 20) }], alice.token),
      )
      expect(third.status).toBe(429)
      expect((await third.json()).meta.code).toBe('TooManyRequests')
      expect(third.headers.get('retry-after')).toBe('5')
      const other = await app.request(
        '/api/uploads',
        await uploadRequest([{ bytes: await photo('jpeg', 20, 20) }], bob.token),
      )
      expect(other.status).toBe(201)
    } finally {
      for (const s of slow) s.release()
    }
    for (const s of slow) expect((await s.answer).status).toBe(400)
  })

  it('answers 400 to an upload that goes quiet for longer than its stall limit, long before its whole time limit', async () => {
    const app = customApp({ limits: { ...uploadLimits, timeoutMs: 10 * 60_000, stallMs: 200 } })
    const quiet = await stalled(alice.token, app)
    try {
      const res = await quiet.answer
      expect(res.status).toBe(400)
      expect((await res.json()).message).toMatch(/quá lâu/)
    } finally {
      quiet.release()
    }
  })

  it('decodes one photo at a time, however many arrive, so decoding never takes every thread a login needs', async () => {
    const photos = await Promise.all([1, 2, 3, 4].map(() => photo('jpeg', 1200, 900)))
    let most = 0
    const watching = setInterval(() => (most = Math.max(most, photoDecoding.running())), 1)
    try {
      await Promise.all(photos.map((p) => processImages([p])))
    } finally {
      clearInterval(watching)
    }
    expect(most).toBe(1)
    expect(photoDecoding.running()).toBe(0)
  })
})

describe('GET /api/uploads/{id}', () => {
  it('answers 404 to another account for the image and its thumbnail, exactly as for an unknown id', async () => {
    const res = await upload([{ bytes: await photo('jpeg', 20, 20) }])
    const url = res.body.data[0].url as string
    const unknown = await t.request('/api/uploads/AAAAAAAAAAAAAAAAAAAAAA', { token: bob.token })
    expect(unknown.status).toBe(404)
    for (const path of [url, `${url}/thumb`]) {
      const other = await t.request(path, { token: bob.token })
      expect(other.status).toBe(404)
      expect(other.body).toEqual(unknown.body)
    }
  })

  it('deletes a photo and its thumbnail for its owner only, once: afterwards both answer 404, and so does a second delete', async () => {
    const res = await upload([{ bytes: await photo('jpeg', 20, 20) }])
    const url = res.body.data[0].url as string
    const foreign = await t.request(url, { method: 'DELETE', token: bob.token })
    expect([foreign.status, foreign.body.meta.code]).toEqual([404, 'NotFound'])
    expect((await t.request(url, { token: alice.token })).status).toBe(200)
    const removed = await t.request(url, { method: 'DELETE', token: alice.token })
    expect([removed.status, removed.body.meta.code, removed.body.data]).toEqual([200, 'Ok', null])
    for (const path of [url, `${url}/thumb`]) expect((await t.request(path, { token: alice.token })).status).toBe(404)
    expect((await t.request(url, { method: 'DELETE', token: alice.token })).status).toBe(404)
    expect(filesUnder(join(t.config.dataDir, 'uploads')).filter((f) => f.includes(res.body.data[0].id))).toEqual([])
  })

  it('answers 404 for an id that cannot exist', async () => {
    const res = await t.request('/api/uploads/..%2F..%2Fetc%2Fpasswd', { token: alice.token })
    expect(res.status).toBe(404)
    expect(res.body.meta.code).toBe('NotFound')
  })

  it('answers 401 without a token', async () => {
    const res = await upload([{ bytes: await photo('jpeg', 20, 20) }])
    const anonymous = await t.request(res.body.data[0].url)
    expect(anonymous.status).toBe(401)
  })
})
