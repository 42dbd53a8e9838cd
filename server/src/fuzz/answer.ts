import { brotliDecompressSync, gunzipSync, inflateSync } from 'node:zlib'
import { expect } from 'vitest'
import { codeStatus, metaCodes } from '#core/contract/envelope.ts'
import type { TestApp } from '../testing/test-app.ts'
import type { Body } from './arbitraries.ts'

// Far above anything a request takes here; only a hang (a promise never settling) reaches it.
const HANG_MS = 30_000

/** The body as a browser would read it: the app compresses for whatever Accept-Encoding allows. */
function decoded(encoding: string | null, bytes: Buffer): string {
  if (encoding === 'gzip') return gunzipSync(bytes).toString()
  if (encoding === 'deflate') return inflateSync(bytes).toString()
  if (encoding === 'br') return brotliDecompressSync(bytes).toString()
  return bytes.toString()
}

export type Answer = { status: number; headers: Headers; text: string }

/** Sends one request to the in-process app; a request that never settles fails the property. */
export async function send(
  t: TestApp,
  path: string,
  init: { method?: string; headers?: Record<string, string | undefined>; body?: Body } = {},
): Promise<Answer> {
  const headers = new Headers()
  for (const [k, v] of Object.entries(init.headers ?? {})) if (v !== undefined) headers.set(k, v)
  const request = Promise.resolve(
    t.app.request(path, { method: init.method ?? 'GET', headers, body: init.body as BodyInit | undefined }),
  ).then(async (res) => ({
    status: res.status,
    headers: res.headers,
    text: decoded(res.headers.get('content-encoding'), Buffer.from(await res.arrayBuffer())),
  }))
  let timer: NodeJS.Timeout | undefined
  const hang = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error(`${init.method ?? 'GET'} ${path.slice(0, 120)} did not answer`)), HANG_MS)
  })
  try {
    return await Promise.race([request, hang])
  } finally {
    clearTimeout(timer)
  }
}

/**
 * What every answer to hostile input must be: no 5xx (503 only while the database is really down,
 * which these tests never cause), and under /api the contract's envelope with the HTTP status its
 * meta.code stands for, as JSON.
 */
export function expectSound(res: Answer, path: string, method = 'GET'): void {
  const where = `${method} ${path.slice(0, 160)} → ${res.status} ${res.text.slice(0, 300)}`
  expect(res.status, where).toBeLessThan(500)
  expect(res.status, where).toBeGreaterThanOrEqual(200)
  // HEAD answers carry no body to check.
  // The URL parser resolves dot segments (/api/%2e%2e/ is /), so the path the server saw decides.
  const seen = new URL(`http://localhost${path}`).pathname
  // Tile errors come from the same error handler as the API's; other non-API answers are the app's.
  if (
    method === 'HEAD' ||
    (!seen.startsWith('/api/') && !(seen.startsWith('/tiles/') && method === 'GET' && res.status >= 400))
  )
    return
  expect(res.headers.get('content-type'), where).toMatch(/^application\/json/)
  let body: unknown
  expect(() => (body = JSON.parse(res.text)), where).not.toThrow()
  const { message, meta } = body as { message?: unknown; meta?: { code?: unknown; status?: unknown } }
  expect(typeof message, where).toBe('string')
  expect(metaCodes, where).toContain(meta?.code)
  // 201 Created is an Ok too.
  expect(codeStatus[meta!.code as keyof typeof codeStatus], where).toBe(res.status === 201 ? 200 : res.status)
  expect(meta?.status, where).toBe(res.status < 300 ? 'OK' : 'NG')
  // Failures never leak internals.
  if (res.status >= 400) expect(res.text, where).not.toMatch(/\bat .+\.ts:\d+|select .+ from|syntax error at|ZodError/i)
}
