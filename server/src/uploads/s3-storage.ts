import { createHash } from 'node:crypto'
import { AwsClient } from 'aws4fetch'
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
  /** With temporary credentials (an IAM role): their session token, sent as X-Amz-Security-Token. */
  sessionToken?: string
}

/** An S3 answer that is neither success nor a missing object. */
export class S3Error extends Error {
  override name = 'S3Error'
}

/**
 * Objects in an S3-compatible bucket (UPLOAD_STORE=s3://bucket/prefix), addressed path-style
 * (`endpoint/bucket/key`), which every S3-compatible server accepts. aws4fetch signs each request
 * (Signature Version 4, over the payload's SHA-256 so the store checks the bytes it receives) and sends it
 * again on a 5xx or 429 answer, up to `retries` times with jittered exponential backoff.
 */
export function s3Storage(loc: S3Location, opts: { retries?: number } = {}): UploadStorage {
  const client = new AwsClient({
    accessKeyId: loc.accessKeyId,
    secretAccessKey: loc.secretAccessKey,
    sessionToken: loc.sessionToken,
    region: loc.region,
    service: 's3',
    retries: opts.retries ?? 3,
  })
  const base = loc.endpoint.replace(/\/+$/, '')

  function send(method: 'PUT' | 'GET' | 'DELETE', key: string, body?: Uint8Array, type?: string): Promise<Response> {
    assertStorageKey(key)
    return client.fetch(`${base}/${loc.bucket}/${loc.prefix}${key}`, {
      method,
      headers: {
        'x-amz-content-sha256': createHash('sha256')
          .update(body ?? '')
          .digest('hex'),
        ...(type ? { 'content-type': type } : {}),
      },
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
