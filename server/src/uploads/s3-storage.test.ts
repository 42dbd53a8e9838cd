import { createHash, createHmac, type Hash, type Hmac } from 'node:crypto'
import { createServer, type IncomingMessage } from 'node:http'
import type { AddressInfo } from 'node:net'
import { SignatureV4 } from '@smithy/signature-v4'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { parseS3Url, s3Storage } from './s3-storage.ts'

/** SHA-256 and its HMAC as the AWS SDK's signer wants them (what @smithy/hash-node would give it). */
type Source = string | ArrayBuffer | ArrayBufferView
const bytesOf = (d: Source) =>
  typeof d === 'string'
    ? d
    : ArrayBuffer.isView(d)
      ? new Uint8Array(d.buffer, d.byteOffset, d.byteLength)
      : new Uint8Array(d)

class Sha256 {
  private readonly h: Hash | Hmac
  constructor(secret?: Source) {
    this.h = secret ? createHmac('sha256', bytesOf(secret)) : createHash('sha256')
  }
  update(data: Source) {
    this.h.update(bytesOf(data))
  }
  async digest() {
    return new Uint8Array(this.h.digest())
  }
}

/**
 * What the AWS SDK's own signer (@smithy/signature-v4, written apart from aws4fetch, which s3-storage.ts
 * uses) makes the Authorization header of a request with the headers it says it signed.
 */
async function expectedAuthorization(
  req: IncomingMessage,
  signed: string[],
  creds: { accessKeyId: string; secretAccessKey: string; sessionToken?: string },
): Promise<string> {
  const headers = Object.fromEntries(signed.map((n) => [n, String(req.headers[n] ?? '')]))
  const amzDate = headers['x-amz-date'] ?? ''
  const when = new Date(
    `${amzDate.slice(0, 4)}-${amzDate.slice(4, 6)}-${amzDate.slice(6, 8)}T${amzDate.slice(9, 11)}:${amzDate.slice(11, 13)}:${amzDate.slice(13, 15)}Z`,
  )
  const signer = new SignatureV4({
    credentials: creds,
    region: 'ap-southeast-1',
    service: 's3',
    sha256: Sha256,
    uriEscapePath: false,
  })
  const [hostname, port] = (headers.host ?? '').split(':')
  const out = await signer.sign(
    {
      method: req.method ?? '',
      protocol: 'http:',
      hostname: hostname!,
      port: Number(port),
      path: req.url ?? '',
      query: {},
      headers,
    },
    { signingDate: when },
  )
  return String(out.headers.authorization ?? out.headers.Authorization)
}

describe('parseS3Url', () => {
  it('reads the bucket and a prefix ending in a slash', () => {
    expect(parseS3Url('s3://anh-quy-hoach/photos')).toEqual({ bucket: 'anh-quy-hoach', prefix: 'photos/' })
    expect(parseS3Url('s3://anh-quy-hoach')).toEqual({ bucket: 'anh-quy-hoach', prefix: '' })
    expect(() => parseS3Url('s3://A_B')).toThrow()
  })
})

/**
 * A tiny S3: objects in a map, every request's signature checked by the AWS SDK's signer, and the first
 * `failFirst` requests answered 503 as a busy S3 does.
 */
function fakeS3(creds: { accessKeyId: string; secretAccessKey: string; sessionToken?: string }) {
  const objects = new Map<string, { bytes: Buffer; type: string }>()
  const seen: string[] = []
  const state = { failFirst: 0 }
  const server = createServer(async (req: IncomingMessage, res) => {
    const chunks: Buffer[] = []
    for await (const c of req) chunks.push(c as Buffer)
    const body = Buffer.concat(chunks)
    const auth = req.headers.authorization ?? ''
    const signed = /SignedHeaders=([^,]+)/.exec(auth)?.[1]?.split(';') ?? []
    seen.push(`${req.method} ${req.url}`)
    if (state.failFirst > 0) {
      state.failFirst -= 1
      res.writeHead(503).end('<Error><Code>SlowDown</Code></Error>')
      return
    }
    const hashOk = req.headers['x-amz-content-sha256'] === createHash('sha256').update(body).digest('hex')
    const tokenOk = (req.headers['x-amz-security-token'] ?? undefined) === creds.sessionToken
    if (auth !== (await expectedAuthorization(req, signed, creds)) || !hashOk || !tokenOk || !signed.includes('host')) {
      res.writeHead(403).end('<Error><Code>SignatureDoesNotMatch</Code></Error>')
      return
    }
    const key = req.url ?? ''
    if (req.method === 'PUT') {
      objects.set(key, { bytes: body, type: String(req.headers['content-type']) })
      res.writeHead(200).end()
    } else if (req.method === 'GET') {
      const o = objects.get(key)
      if (!o) res.writeHead(404).end('<Error><Code>NoSuchKey</Code></Error>')
      else res.writeHead(200, { 'content-type': o.type }).end(o.bytes)
    } else if (req.method === 'DELETE') {
      objects.delete(key)
      res.writeHead(204).end()
    } else res.writeHead(405).end()
  })
  return { server, objects, seen, state }
}

describe('s3Storage against an S3 that checks signatures with the AWS SDK signer', () => {
  const s3 = fakeS3({ accessKeyId: 'KHOA', secretAccessKey: 'bi-mat' })
  let endpoint = ''
  beforeAll(async () => {
    await new Promise<void>((r) => s3.server.listen(0, '127.0.0.1', () => r()))
    endpoint = `http://127.0.0.1:${(s3.server.address() as AddressInfo).port}`
  })
  afterAll(() => s3.server.close())

  const storage = (secret = 'bi-mat') =>
    s3Storage({
      endpoint,
      region: 'ap-southeast-1',
      bucket: 'anh',
      prefix: 'photos/',
      accessKeyId: 'KHOA',
      secretAccessKey: secret,
    })

  it('puts, gets back exactly and deletes an object under bucket/prefix/key', async () => {
    const bytes = new Uint8Array([0xff, 0xd8, 0xff, 1, 2, 3])
    await storage().put('ab/abc.jpg', bytes, 'image/jpeg')
    expect(s3.objects.get('/anh/photos/ab/abc.jpg')?.type).toBe('image/jpeg')
    expect([...((await storage().get('ab/abc.jpg')) ?? [])]).toEqual([...bytes])
    await storage().delete('ab/abc.jpg')
    expect(await storage().get('ab/abc.jpg')).toBeNull()
    await expect(storage().delete('ab/abc.jpg')).resolves.toBeUndefined()
  })

  it('fails loudly when the store refuses the signature, instead of reporting the photo stored', async () => {
    await expect(storage('sai').put('ab/x.jpg', new Uint8Array([1]), 'image/jpeg')).rejects.toThrow(
      /S3 PUT answered 403/,
    )
    expect(s3.objects.has('/anh/photos/ab/x.jpg')).toBe(false)
  })

  it('sends a request again when S3 answers 503, and stores the photo once', async () => {
    s3.state.failFirst = 2
    const before = s3.seen.length
    await storage().put('ab/lai.jpg', new Uint8Array([7, 8]), 'image/jpeg')
    expect(s3.seen.slice(before)).toEqual(Array(3).fill('PUT /anh/photos/ab/lai.jpg'))
    expect([...(s3.objects.get('/anh/photos/ab/lai.jpg')?.bytes ?? [])]).toEqual([7, 8])
  })

  it('refuses keys that could leave the prefix', async () => {
    await expect(storage().put('../x.jpg', new Uint8Array([1]), 'image/jpeg')).rejects.toThrow(/invalid storage key/)
  })
})

describe('s3Storage with the temporary credentials of an IAM role', () => {
  const creds = { accessKeyId: 'ASIAKHOA', secretAccessKey: 'bi-mat-tam', sessionToken: 'phien-lam-viec-123' }
  const s3 = fakeS3(creds)
  let endpoint = ''
  beforeAll(async () => {
    await new Promise<void>((r) => s3.server.listen(0, '127.0.0.1', () => r()))
    endpoint = `http://127.0.0.1:${(s3.server.address() as AddressInfo).port}`
  })
  afterAll(() => s3.server.close())

  it('signs with the session token, which the store requires', async () => {
    const at = { endpoint, region: 'ap-southeast-1', bucket: 'anh', prefix: '' }
    await s3Storage({ ...at, ...creds }).put('ab/role.jpg', new Uint8Array([1]), 'image/jpeg')
    expect(s3.objects.has('/anh/ab/role.jpg')).toBe(true)
    const { sessionToken: _none, ...withoutToken } = creds
    await expect(s3Storage({ ...at, ...withoutToken }).get('ab/role.jpg')).rejects.toThrow(/S3 GET answered 403/)
  })
})
