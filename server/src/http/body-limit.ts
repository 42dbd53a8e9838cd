import type { Context, MiddlewareHandler } from 'hono'
import { bodyLimit } from 'hono/body-limit'

/**
 * At most `maxBytes` of request body, else the answer of `tooLarge`. A GET or HEAD has none. A body of
 * declared length is judged by its Content-Length alone; only one sent in chunks, of unknown length, is
 * counted as it arrives (hono's bodyLimit, which decides the same way). hono's bodyLimit looks for the
 * body through a WHATWG Request, which @hono/node-server then builds for the request, and the route
 * then reads its JSON through that Request's web stream instead of straight from the socket.
 */
export function limitBody(maxBytes: number, tooLarge: (c: Context) => Response | Promise<Response>): MiddlewareHandler {
  const counted = bodyLimit({ maxSize: maxBytes, onError: tooLarge })
  return async (c, next) => {
    if (c.req.method === 'GET' || c.req.method === 'HEAD') return next()
    const declared = c.req.header('content-length')
    if (declared !== undefined && c.req.header('transfer-encoding') === undefined)
      return parseInt(declared || '0', 10) > maxBytes ? tooLarge(c) : next()
    return counted(c, next)
  }
}
