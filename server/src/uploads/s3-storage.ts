import { createHash, createHmac } from 'node:crypto'
import { assertStorageKey, type UploadStorage } from './storage.ts'

export type S3Location = {
  /** https://s3.<region>.amazonaws.com, or an S3-compatible server (MinIO, Ceph, R2 …). */
  endpoint: string
  region: string
  bucket: string
  /** Prepended to every key: `photos/` keeps them apart from other objects in the bucket. */
  prefix: string
  accessKeyId: string
  secretAccessKey: string
}

const sha256Hex = (data: string | Uint8Array) => createHash('sha256').update(data).digest('hex')
const hmac = (key: string | Buffer, data: string) => createHmac('sha256', key).update(data).digest()

/** `20130524T000000Z` and `20130524` for a time. */
function amzDates(now: Date) {
  const amzDate = now
    .toISOString()
    .replace(/[-:]/g, '')
    .replace(/\.\d{3}/, '')
  return { amzDate, day: amzDate.slice(0, 8) }
}

/**
 * AWS Signature Version 4 for one request: the Authorization header over `headers` (which must hold
 * host, x-amz-date and x-amz-content-sha256). Paths here are made of key characters that need no
 * encoding, and the requests carry no query string.
 */
export function signV4(req: {
  method: string
  path: string
  headers: Record<string, string>
  region: string
  service: string
  accessKeyId: string
  secretAccessKey: string
}): string {
  const names = Object.keys(req.headers)
    .map((n) => n.toLowerCase())
    .sort()
  const value = (name: string) =>
    Object.entries(req.headers)
      .find(([n]) => n.toLowerCase() === name)?.[1]
      ?.trim()
      .replace(/\s+/g, ' ') ?? ''
  const signedHeaders = names.join(';')
  const canonical = [
    req.method,
    req.path,
    '',
    ...names.map((n) => `${n}:${value(n)}`),
    '',
    signedHeaders,
    value('x-amz-content-sha256'),
  ].join('\n')
  const amzDate = value('x-amz-date')
  const scope = `${amzDate.slice(0, 8)}/${req.region}/${req.service}/aws4_request`
  const toSign = ['AWS4-HMAC-SHA256', amzDate, scope, sha256Hex(canonical)].join('\n')
  const key = hmac(
    hmac(hmac(hmac(`AWS4${req.secretAccessKey}`, amzDate.slice(0, 8)), req.region), req.service),
    'aws4_request',
  )
  const signature = createHmac('sha256', key).update(toSign).digest('hex')
  return `AWS4-HMAC-SHA256 Credential=${req.accessKeyId}/${scope}, SignedHeaders=${signedHeaders}, Signature=${signature}`
}

/** An S3 answer that is neither success nor a missing object. */
export class S3Error extends Error {
  override name = 'S3Error'
}

/**
 * Objects in an S3-compatible bucket (UPLOAD_STORE=s3://bucket/prefix), addressed path-style
 * (`endpoint/bucket/key`), which every S3-compatible server accepts. Requests are signed with
 * Signature Version 4 over the payload's SHA-256.
 */
export function s3Storage(loc: S3Location, opts: { fetch?: typeof fetch; now?: () => Date } = {}): UploadStorage {
  const doFetch = opts.fetch ?? fetch
  const now = opts.now ?? (() => new Date())
  const base = new URL(loc.endpoint)
  const basePath = base.pathname.replace(/\/+$/, '')

  async function send(
    method: 'PUT' | 'GET' | 'DELETE',
    key: string,
    body?: Uint8Array,
    contentType?: string,
  ): Promise<Response> {
    assertStorageKey(key)
    const path = `${basePath}/${loc.bucket}/${loc.prefix}${key}`
    const { amzDate } = amzDates(now())
    const headers: Record<string, string> = {
      host: base.host,
      'x-amz-date': amzDate,
      'x-amz-content-sha256': sha256Hex(body ?? ''),
      ...(contentType ? { 'content-type': contentType } : {}),
    }
    const authorization = signV4({
      method,
      path,
      headers,
      region: loc.region,
      service: 's3',
      accessKeyId: loc.accessKeyId,
      secretAccessKey: loc.secretAccessKey,
    })
    const { host: _host, ...sent } = headers
    return doFetch(new URL(path, base), {
      method,
      headers: { ...sent, authorization },
      body: body as Uint8Array<ArrayBuffer> | undefined,
      signal: AbortSignal.timeout(30_000),
    })
  }

  const failed = async (what: string, res: Response) =>
    new S3Error(`S3 ${what} answered ${res.status}: ${(await res.text().catch(() => '')).slice(0, 200)}`)

  return {
    async put(key, bytes, contentType) {
      const res = await send('PUT', key, bytes, contentType)
      if (!res.ok) throw await failed('PUT', res)
      await res.body?.cancel()
    },
    async get(key) {
      const res = await send('GET', key)
      if (res.status === 404) {
        await res.body?.cancel()
        return null
      }
      if (!res.ok) throw await failed('GET', res)
      return new Uint8Array(await res.arrayBuffer())
    },
    async delete(key) {
      const res = await send('DELETE', key)
      if (!res.ok && res.status !== 404) throw await failed('DELETE', res)
      await res.body?.cancel()
    },
  }
}

/** s3://bucket/prefix → bucket and prefix (ending in / when not empty). */
export function parseS3Url(url: string): { bucket: string; prefix: string } {
  const m = /^s3:\/\/([a-z0-9][a-z0-9.-]{1,61}[a-z0-9])(?:\/(.*))?$/.exec(url)
  if (!m) throw new Error(`not an s3://bucket/prefix URL: ${url}`)
  const prefix = (m[2] ?? '').replace(/^\/+|\/+$/g, '')
  return { bucket: m[1] ?? '', prefix: prefix ? `${prefix}/` : '' }
}
