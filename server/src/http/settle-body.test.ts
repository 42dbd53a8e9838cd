import { Agent, request } from 'node:http'
import { connect, type Socket } from 'node:net'
import { Hono } from 'hono'
import { z } from 'zod'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { createTestUser, depsOf, type TestUser } from '../accounts/test-user.ts'
import type { AppEnv } from '../deps.ts'
import { form, photo } from '../routes/uploads/test-images.ts'
import { uploadRoutes } from '../routes/uploads/routes.ts'
import { createTestApp, type TestApp } from '../testing/test-app.ts'
import { uploadLimits } from '../uploads/multipart.ts'
import { fail } from './envelope.ts'
import { ApiError } from './errors.ts'
import { listen, type Listening } from './listen.ts'
import { settleBody } from './settle-body.ts'
import { jsonBody } from './validate.ts'

let t: TestApp
let user: TestUser
let served: Listening
beforeAll(async () => {
  t = await createTestApp()
  user = await createTestUser(t)
  served = await listen(t.app.fetch, { port: 0, hostname: '127.0.0.1', config: t.config })
})
afterAll(() => served.close())

type Answer = { status: number; body: any; connection: string | undefined; socket: Socket | undefined }

/** One request through `agent`, the body written in 64 kB pieces as a phone's upload arrives. */
function send(
  agent: Agent,
  port: number,
  method: string,
  path: string,
  headers: Record<string, string | number>,
  body?: Uint8Array,
): Promise<Answer> {
  return new Promise((resolve, reject) => {
    let socket: Socket | undefined
    const req = request({ agent, host: '127.0.0.1', port, method, path, headers }, (res) => {
      let text = ''
      res.setEncoding('utf8')
      res.on('data', (d: string) => (text += d))
      res.on('end', () =>
        resolve({ status: res.statusCode ?? 0, body: JSON.parse(text), connection: res.headers.connection, socket }),
      )
    })
    req.on('socket', (s) => (socket = s))
    req.on('error', reject)
    if (!body) return void req.end()
    let offset = 0
    const next = () => {
      while (offset < body.length) {
        const piece = body.subarray(offset, (offset += 64 * 1024))
        if (!req.write(piece)) return void req.once('drain', next)
      }
      req.end()
    }
    next()
  })
}

/** The refused request and then a health check on one keep-alive connection (one socket at most). */
async function refusedThenNext(
  port: number,
  headers: Record<string, string | number>,
  body: Uint8Array,
  path = '/api/uploads',
) {
  const agent = new Agent({ keepAlive: true, maxSockets: 1 })
  try {
    const refused = await send(agent, port, 'POST', path, headers, body)
    const next = await send(agent, port, 'GET', '/api/health', {})
    return { refused, next, sameSocket: refused.socket !== undefined && refused.socket === next.socket }
  } finally {
    agent.destroy()
  }
}

const bearer = () => ({ authorization: `Bearer ${user.token}` })
const multipart = async (parts: Parameters<typeof form>[0]) => {
  const { body, contentType } = await form(parts)
  return { body, headers: { 'content-type': contentType, 'content-length': body.length } }
}

describe('answered requests on a keep-alive connection', () => {
  it('serves GETs one after another on the same socket, never answering Connection: close', async () => {
    const agent = new Agent({ keepAlive: true, maxSockets: 1 })
    try {
      const answers = []
      for (const path of ['/api/health', '/api/no-such-route', '/api/planning?lat=10.79&lng=106.7', '/api/health'])
        answers.push(await send(agent, served.port, 'GET', path, bearer()))
      expect(answers.map((a) => a.status)).toEqual([200, 404, expect.any(Number), 200])
      expect(answers.map((a) => a.connection)).toEqual(answers.map(() => 'keep-alive'))
      expect(new Set(answers.map((a) => a.socket)).size).toBe(1)
    } finally {
      agent.destroy()
    }
  })
})

describe('refused requests on a keep-alive connection', () => {
  it('answers 415 UnsupportedMedia to a text file named .jpg and serves the next request on the same socket', async () => {
    const upload = await multipart([
      {
        bytes: Buffer.from('Đây là một tệp văn bản, không phải ảnh.\n'.repeat(200)),
        filename: 'anh.jpg',
        type: 'image/jpeg',
      },
    ])
    const { refused, next, sameSocket } = await refusedThenNext(
      served.port,
      { ...bearer(), ...upload.headers },
      upload.body,
    )
    expect(refused.status).toBe(415)
    expect(refused.body.meta.code).toBe('UnsupportedMedia')
    expect(next.status).toBe(200)
    expect(sameSocket).toBe(true)
  })

  it('answers 413 MaxFile to an 11 MB file, reading the rest of the body, and keeps the connection', async () => {
    const upload = await multipart([{ bytes: Buffer.alloc(11 * 1024 * 1024, 0xff) }])
    const { refused, next, sameSocket } = await refusedThenNext(
      served.port,
      { ...bearer(), ...upload.headers },
      upload.body,
    )
    expect(refused.status).toBe(413)
    expect(refused.body.meta.code).toBe('MaxFile')
    expect(refused.connection).not.toBe('close')
    expect(next.status).toBe(200)
    expect(sameSocket).toBe(true)
  })

  it('answers 413 to five photos and 401 to a photo without a token, each time keeping the connection', async () => {
    const p = await photo('jpeg', 16, 16)
    const five = await multipart([p, p, p, p, p].map((bytes) => ({ bytes })))
    const many = await refusedThenNext(served.port, { ...bearer(), ...five.headers }, five.body)
    expect([many.refused.body.meta.code, many.next.status, many.sameSocket]).toEqual(['MaxFile', 200, true])
    const big = await multipart([{ bytes: Buffer.alloc(3 * 1024 * 1024, 0xff) }])
    const anonymous = await refusedThenNext(served.port, big.headers, big.body)
    expect([anonymous.refused.body.meta.code, anonymous.next.status, anonymous.sameSocket]).toEqual([
      'Unauthorized',
      200,
      true,
    ])
  })

  it('answers a retry with a recorded Idempotency-Key with the first answer, and keeps the connection', async () => {
    const upload = await multipart([{ bytes: await photo('jpeg', 16, 16) }])
    const headers = { ...bearer(), ...upload.headers, 'idempotency-key': `k-${Math.random()}` }
    const first = await refusedThenNext(served.port, headers, upload.body)
    const retry = await refusedThenNext(served.port, headers, upload.body)
    expect(retry.refused.body).toEqual(first.refused.body)
    expect([retry.refused.status, retry.next.status, retry.sameSocket]).toEqual([201, 200, true])
  })

  it('answers 413 to an oversized JSON body and keeps the connection', async () => {
    const json = Buffer.from(JSON.stringify({ email: 'a@b.vn', password: 'x'.repeat(300 * 1024) }))
    const { refused, next, sameSocket } = await refusedThenNext(
      served.port,
      { 'content-type': 'application/json', 'content-length': json.length },
      json,
      '/api/auth/login',
    )
    expect(refused.status).toBe(413)
    expect(refused.body.meta.code).toBe('MaxFile')
    expect([next.status, sameSocket]).toEqual([200, true])
  })
})

/** Raw request: writes `head` and `firstBytes` of a body, then reads until the server closes. */
function rawUntilClosed(
  port: number,
  head: string,
  firstBytes: Uint8Array,
): Promise<{ text: string; ending: 'end' | string }> {
  return new Promise((resolve) => {
    let text = ''
    let ending: string | undefined
    const socket = connect(port, '127.0.0.1', () => {
      socket.write(head)
      socket.write(firstBytes)
    })
    socket.on('data', (d: Buffer) => (text += d.toString('utf8')))
    socket.on('end', () => {
      ending ??= 'end'
      socket.end()
    })
    socket.on('error', (err: NodeJS.ErrnoException) => (ending ??= err.code ?? err.message))
    socket.on('close', () => resolve({ text, ending: ending ?? 'close' }))
  })
}

describe('refusals that end the connection', () => {
  it('answers a body declared over the upload limit with 413 and Connection: close, then closes without a reset', async () => {
    const head = `POST /api/uploads HTTP/1.1\r\nHost: x\r\nAuthorization: Bearer ${user.token}\r\nContent-Type: multipart/form-data; boundary=b\r\nContent-Length: ${uploadLimits.maxBodyBytes * 2}\r\n\r\n`
    const { text, ending } = await rawUntilClosed(served.port, head, Buffer.alloc(1024 * 1024, 0x61))
    expect(text).toMatch(/^HTTP\/1\.1 413 /)
    expect(text).toMatch(/\r\nconnection: close\r\n/i)
    expect(JSON.parse(text.slice(text.indexOf('\r\n\r\n') + 4)).meta.code).toBe('MaxFile')
    expect(ending).toBe('end')
  })

  it('answers an upload that stops arriving with 400 and Connection: close, then closes without a reset', async () => {
    const app = new Hono<AppEnv>()
      .use('*', settleBody({ drainMaxBytes: uploadLimits.maxBodyBytes, lingerMs: 1_000 }))
      .route('/api/uploads', uploadRoutes(depsOf(t), { limits: { ...uploadLimits, timeoutMs: 300 } }))
      .onError((err, c) =>
        err instanceof ApiError
          ? fail(c, err.code, err.message, { headers: err.headers })
          : fail(c, 'InternalServerError'),
      )
    const slow = await listen(app.fetch, { port: 0, hostname: '127.0.0.1', config: t.config })
    try {
      const head = `POST /api/uploads HTTP/1.1\r\nHost: x\r\nAuthorization: Bearer ${user.token}\r\nContent-Type: multipart/form-data; boundary=b\r\nContent-Length: 500000\r\n\r\n`
      const { text, ending } = await rawUntilClosed(
        slow.port,
        head,
        Buffer.from('--b\r\nContent-Disposition: form-data; name="images"; filename="a.jpg"\r\n\r\n'),
      )
      expect(text).toMatch(/^HTTP\/1\.1 400 /)
      expect(text).toMatch(/\r\nconnection: close\r\n/i)
      expect(JSON.parse(text.slice(text.indexOf('\r\n\r\n') + 4)).message).toMatch(/quá lâu/)
      expect(ending).toBe('end')
    } finally {
      await slow.close()
    }
  })

  it('answers a JSON body that trickles in too slowly with 400 and Connection: close, then closes without a reset', async () => {
    const app = new Hono<AppEnv>()
      .use('*', settleBody({ drainMaxBytes: 1024, lingerMs: 1_000 }))
      .post('/json', async (c) => c.json(await jsonBody(c, z.object({ email: z.string() }), 300)))
      .onError((err, c) =>
        err instanceof ApiError
          ? fail(c, err.code, err.message, { headers: err.headers })
          : fail(c, 'InternalServerError'),
      )
    const slow = await listen(app.fetch, { port: 0, hostname: '127.0.0.1', config: t.config })
    try {
      const head = 'POST /json HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\nContent-Length: 1000\r\n\r\n'
      const { text, ending } = await rawUntilClosed(slow.port, head, Buffer.from('{"email":"a'))
      expect(text).toMatch(/^HTTP\/1\.1 400 /)
      expect(text).toMatch(/\r\nconnection: close\r\n/i)
      expect(JSON.parse(text.slice(text.indexOf('\r\n\r\n') + 4)).message).toMatch(/quá lâu/)
      expect(ending).toBe('end')
    } finally {
      await slow.close()
    }
  })
})
