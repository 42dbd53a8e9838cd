import type { MiddlewareHandler } from 'hono'
import { promisify } from 'node:util'
import { gzip, gzipSync } from 'node:zlib'
import { acceptsGzip } from '../routes/tiles/routes.ts'

const gzipAsync = promisify(gzip)

/** Below this a gzip header and the CPU cost more than the bytes saved. */
const THRESHOLD = 1024
/** Up to this, compressing in place (a fraction of a millisecond) costs less than the hop to the thread pool. */
const SYNC_MAX = 64 * 1024

/**
 * gzip for API answers. They are JSON built whole, so the body is compressed in one call and sent with
 * its length in one write. hono's compress() pipes every answer through a
 * CompressionStream that the server then writes out chunk by chunk: on the bench that streaming cost
 * more of the server's single thread than the lookup's own JavaScript.
 */
export function compressJson(): MiddlewareHandler {
  return async (c, next) => {
    await next()
    const res = c.res
    if (c.req.method === 'HEAD' || !res.body || res.status === 204 || res.status === 206 || res.headers.has('Content-Encoding')) return
    if (!/^(application\/(json|[\w.+-]*\+json)|text\/)/.test(res.headers.get('Content-Type') ?? '')) return
    res.headers.append('Vary', 'Accept-Encoding')
    if (!acceptsGzip(c.req.header('accept-encoding'))) return
    const length = Number(res.headers.get('Content-Length') ?? Number.NaN)
    if (length < THRESHOLD) return
    const body = new Uint8Array(await res.arrayBuffer())
    if (body.length < THRESHOLD) {
      c.res = new Response(body, res)
      return
    }
    const packed = new Uint8Array(body.length <= SYNC_MAX ? gzipSync(body) : await gzipAsync(body))
    c.res = new Response(packed, res)
    c.res.headers.set('Content-Encoding', 'gzip')
    c.res.headers.set('Content-Length', String(packed.length))
  }
}
