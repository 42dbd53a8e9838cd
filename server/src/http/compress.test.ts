import { Hono } from 'hono'
import { gunzipSync, gzipSync } from 'node:zlib'
import { describe, expect, it } from 'vitest'
import { compressJson, gzipOptions } from './compress.ts'
import { ok } from './envelope.ts'

const big = { items: Array.from({ length: 200 }, (_, i) => ({ id: i, name: `Đường số ${i}` })) }
const app = new Hono()
  .use('*', compressJson())
  .get('/big', (c) => c.json(big))
  .get('/huge', (c) => c.json({ rows: Array.from({ length: 5000 }, (_, i) => ({ id: i, name: `Thửa ${i}` })) }))
  .get('/small', (c) => c.json({ ok: true }))
  .get('/binary', (c) => c.body(new Uint8Array(4096), 200, { 'Content-Type': 'application/octet-stream' }))
  .get('/empty', (c) => c.body(null, 204))
  .get('/envelope', (c) => ok(c, big))
  .get('/envelope-small', (c) => ok(c, { ok: true }))

describe('gzip for API answers', () => {
  it('sends a large JSON answer gzipped, with its compressed length and Vary', async () => {
    const res = await app.request('/big', { headers: { 'accept-encoding': 'gzip, deflate, br' } })
    expect(res.status).toBe(200)
    expect(res.headers.get('content-encoding')).toBe('gzip')
    expect(res.headers.get('vary')).toContain('Accept-Encoding')
    const bytes = Buffer.from(await res.arrayBuffer())
    expect(Number(res.headers.get('content-length'))).toBe(bytes.length)
    expect(JSON.parse(gunzipSync(bytes).toString('utf8'))).toEqual(big)
    expect(res.headers.get('content-type')).toMatch(/^application\/json/)
  })

  it('gzips an answer too large to compress in place as well', async () => {
    const res = await app.request('/huge', { headers: { 'accept-encoding': 'gzip' } })
    expect(res.headers.get('content-encoding')).toBe('gzip')
    const rows = JSON.parse(gunzipSync(Buffer.from(await res.arrayBuffer())).toString('utf8')).rows
    expect(rows).toHaveLength(5000)
    expect(rows[4999]).toEqual({ id: 4999, name: 'Thửa 4999' })
  })

  it('leaves the answer as it is for a client that does not take gzip', async () => {
    for (const ae of [undefined, 'identity', 'gzip;q=0, br']) {
      const res = await app.request('/big', { headers: ae ? { 'accept-encoding': ae } : {} })
      expect(res.headers.get('content-encoding'), ae).toBeNull()
      expect(await res.json(), ae).toEqual(big)
    }
  })

  it('does not compress small answers, binary bodies or empty answers', async () => {
    const headers = { 'accept-encoding': 'gzip' }
    const small = await app.request('/small', { headers })
    expect(small.headers.get('content-encoding')).toBeNull()
    expect(await small.json()).toEqual({ ok: true })
    const binary = await app.request('/binary', { headers })
    expect(binary.headers.get('content-encoding')).toBeNull()
    expect((await binary.arrayBuffer()).byteLength).toBe(4096)
    const empty = await app.request('/empty', { headers })
    expect(empty.status).toBe(204)
    expect(empty.headers.get('content-encoding')).toBeNull()
  })

  it('gzips an envelope answer from its text, with the same headers as any other JSON answer', async () => {
    const res = await app.request('/envelope', { headers: { 'accept-encoding': 'gzip' } })
    expect(res.headers.get('content-encoding')).toBe('gzip')
    expect(res.headers.get('vary')).toBe('Accept-Encoding')
    expect(res.headers.get('content-type')).toBe('application/json; charset=utf-8')
    const bytes = Buffer.from(await res.arrayBuffer())
    expect(Number(res.headers.get('content-length'))).toBe(bytes.length)
    expect(gunzipSync(bytes).toString('utf8')).toBe(
      JSON.stringify({ message: 'Thành công.', meta: { code: 'Ok', status: 'OK' }, data: big }),
    )
  })

  it('leaves a small envelope answer or one to a client without gzip as it is, varying on Accept-Encoding', async () => {
    for (const [path, ae] of [
      ['/envelope-small', 'gzip'],
      ['/envelope', 'identity'],
    ] as const) {
      const res = await app.request(path, { headers: { 'accept-encoding': ae } })
      expect(res.headers.get('content-encoding'), path).toBeNull()
      expect(res.headers.get('vary'), path).toBe('Accept-Encoding')
      expect((await res.json()).meta.code, path).toBe('Ok')
    }
  })

  it('sends no body and no encoding for HEAD', async () => {
    const res = await app.request('/envelope', { method: 'HEAD', headers: { 'accept-encoding': 'gzip' } })
    expect(res.status).toBe(200)
    expect(res.headers.get('content-encoding')).toBeNull()
    expect(await res.text()).toBe('')
  })

  it('compresses to the very bytes of zlib’s default window, at every size up to a full window', () => {
    const text = JSON.stringify({
      rows: Array.from({ length: 3000 }, (_, i) => ({
        id: i,
        name: `Đường số ${(i * 7919) % 1000}`,
        area_m2: (i * 37.7) % 500,
      })),
    })
    const all = Buffer.from(text)
    for (let length = 1024; length <= 40_000; length = Math.ceil(length * 1.07) + 1) {
      const body = all.subarray(0, length)
      expect(gzipSync(body, gzipOptions(length)).equals(gzipSync(body)), `${length} bytes`).toBe(true)
    }
  })
})
