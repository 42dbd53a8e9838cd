import { createServer, type IncomingMessage } from 'node:http'
import type { AddressInfo } from 'node:net'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { parseS3Url, s3Storage, signV4 } from './s3-storage.ts'

describe('signV4', () => {
  it('signs the GET Object example of the AWS Signature Version 4 documentation to its published signature', () => {
    const authorization = signV4({
      method: 'GET',
      path: '/test.txt',
      headers: {
        Host: 'examplebucket.s3.amazonaws.com',
        Range: 'bytes=0-9',
        'x-amz-content-sha256': 'e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855',
        'x-amz-date': '20130524T000000Z',
      },
      region: 'us-east-1',
      service: 's3',
      accessKeyId: 'AKIAIOSFODNN7EXAMPLE',
      secretAccessKey: 'wJalrXUtnFEMI/K7MDENG/bPxRfiCYEXAMPLEKEY',
    })
    expect(authorization).toBe(
      'AWS4-HMAC-SHA256 Credential=AKIAIOSFODNN7EXAMPLE/20130524/us-east-1/s3/aws4_request, SignedHeaders=host;range;x-amz-content-sha256;x-amz-date, Signature=f0e8bdb87c964420e857bd35b5d6ed310bd44f0170aba48dd91039c6036bdb41',
    )
  })
})

describe('parseS3Url', () => {
  it('reads the bucket and a prefix ending in a slash', () => {
    expect(parseS3Url('s3://anh-quy-hoach/photos')).toEqual({ bucket: 'anh-quy-hoach', prefix: 'photos/' })
    expect(parseS3Url('s3://anh-quy-hoach')).toEqual({ bucket: 'anh-quy-hoach', prefix: '' })
    expect(() => parseS3Url('s3://A_B')).toThrow()
  })
})

/** A tiny S3: objects in a map, every request's signature checked the way S3 checks it. */
function fakeS3(secret: string) {
  const objects = new Map<string, { bytes: Buffer; type: string }>()
  const seen: string[] = []
  const server = createServer(async (req: IncomingMessage, res) => {
    const chunks: Buffer[] = []
    for await (const c of req) chunks.push(c as Buffer)
    const body = Buffer.concat(chunks)
    const auth = req.headers.authorization ?? ''
    const signed = /SignedHeaders=([^,]+)/.exec(auth)?.[1]?.split(';') ?? []
    const headers = Object.fromEntries(signed.map((n) => [n, String(req.headers[n] ?? '')]))
    const expected = signV4({
      method: req.method ?? '',
      path: req.url ?? '',
      headers,
      region: 'ap-southeast-1',
      service: 's3',
      accessKeyId: 'KHOA',
      secretAccessKey: secret,
    })
    const hashOk =
      headers['x-amz-content-sha256'] === (await import('node:crypto')).createHash('sha256').update(body).digest('hex')
    seen.push(`${req.method} ${req.url}`)
    if (auth !== expected || !hashOk || !signed.includes('host')) {
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
  return { server, objects, seen }
}

describe('s3Storage against an S3 that checks signatures', () => {
  const s3 = fakeS3('bi-mat')
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

  it('refuses keys that could leave the prefix', async () => {
    await expect(storage().put('../x.jpg', new Uint8Array([1]), 'image/jpeg')).rejects.toThrow(/invalid storage key/)
  })
})
