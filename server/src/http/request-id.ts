import { randomUUID } from 'node:crypto'
import type { MiddlewareHandler } from 'hono'
import type { AppEnv } from '../deps.ts'
import { addHeaders } from './answer.ts'

/** An id the client (or its proxy) sent that a log line can carry as it is. */
const USABLE_ID = /^[\w\-=]{1,255}$/

/**
 * Names each request, in `c.get('requestId')` and the answer's X-Request-Id, so a log line can be traced
 * to its request across server processes: the X-Request-Id the request came with when it is 1–255
 * letters, digits, `_`, `-` or `=`, else a new UUID. (hono's requestId() does the same, but sets its
 * header before the route runs, which builds every answer on a Headers object; see answer.ts.)
 */
export function requestId(): MiddlewareHandler<AppEnv> {
  return async (c, next) => {
    const given = c.req.header('x-request-id')
    const id = given !== undefined && USABLE_ID.test(given) ? given : randomUUID()
    c.set('requestId', id)
    await next()
    addHeaders(c, { 'x-request-id': id })
  }
}
