import type { Context, MiddlewareHandler } from 'hono'
import { promisify } from 'node:util'
import { gzip, gzipSync, type ZlibOptions } from 'node:zlib'
import { acceptsGzip } from './accepts-gzip.ts'
import { addHeaders, answerParts, replaceAnswer, type AnswerParts } from './answer.ts'

const gzipAsync = promisify(gzip)

/** Below this a gzip header and the CPU cost more than the bytes saved. */
const THRESHOLD = 1024
/** Up to this, compressing in place (a fraction of a millisecond) costs less than the hop to the thread pool. */
const SYNC_MAX = 64 * 1024

const COMPRESSIBLE = /^(application\/(json|[\w.+-]*\+json)|text\/)/

/**
 * gzip for API answers. They are JSON built whole, so the body is compressed in one call and sent with
 * its length in one write. hono's compress() pipes every answer through a
 * CompressionStream that the server then writes out chunk by chunk: on the bench that streaming cost
 * more of the server's single thread than the lookup's own JavaScript. An answer built from its parts
 * (the envelope, see answer.ts) is compressed from its text and rebuilt, never read back.
 */
export function compressJson(): MiddlewareHandler {
  return async (c, next) => {
    await next()
    if (c.req.method === 'HEAD') return
    const parts = answerParts(c)
    if (parts) return compressParts(c, parts)
    const res = c.res
    if (!res.body || res.status === 204 || res.status === 206 || res.headers.has('Content-Encoding')) return
    if (!COMPRESSIBLE.test(res.headers.get('Content-Type') ?? '')) return
    res.headers.append('Vary', 'Accept-Encoding')
    if (!acceptsGzip(c.req.header('accept-encoding'))) return
    const length = Number(res.headers.get('Content-Length') ?? Number.NaN)
    if (length < THRESHOLD) return
    const body = new Uint8Array(await res.arrayBuffer())
    if (body.length < THRESHOLD) {
      c.res = new Response(body, res)
      return
    }
    const packed = await pack(body)
    c.res = new Response(packed, res)
    c.res.headers.set('Content-Encoding', 'gzip')
    c.res.headers.set('Content-Length', String(packed.length))
  }
}

async function compressParts(c: Context, parts: AnswerParts): Promise<void> {
  const { body, headers, status } = parts
  if (
    body === null ||
    status === 204 ||
    status === 206 ||
    headers['content-encoding'] !== undefined ||
    !COMPRESSIBLE.test(headers['content-type'] ?? '')
  )
    return
  if (
    !acceptsGzip(c.req.header('accept-encoding')) ||
    (typeof body === 'string' ? Buffer.byteLength(body) : body.length) < THRESHOLD
  ) {
    addHeaders(c, { vary: 'Accept-Encoding' })
    return
  }
  const packed = await pack(typeof body === 'string' ? Buffer.from(body) : body)
  const vary = headers.vary === undefined ? 'Accept-Encoding' : `${headers.vary}, Accept-Encoding`
  replaceAnswer(c, {
    status,
    body: packed,
    headers: { ...headers, vary, 'content-encoding': 'gzip', 'content-length': String(packed.length) },
  })
}

/**
 * gzip at zlib's default level with a window just large enough for the body: the same bytes as the
 * default 32 kB window (every match distance still fits, and nothing slides), while far less memory is
 * cleared and touched per answer. Node's zlib (Chromium's) zeroes the window, its match chains and the
 * hash table on every start: 192 kB with the default window, 80 kB with one fitted to a 2 kB planning
 * answer, whose compression itself reads and writes a few kB.
 */
export function gzipOptions(length: number): ZlibOptions {
  return { windowBits: Math.min(15, Math.max(9, Math.ceil(Math.log2(length + MIN_LOOKAHEAD)))) }
}
/** What zlib keeps free at the window's end: a body up to the window size minus this fits it whole. */
const MIN_LOOKAHEAD = 262

function pack(body: Uint8Array): Uint8Array<ArrayBuffer> | Promise<Uint8Array<ArrayBuffer>> {
  return body.length <= SYNC_MAX ? gzipSync(body, gzipOptions(body.length)) : gzipAsync(body, gzipOptions(body.length))
}
