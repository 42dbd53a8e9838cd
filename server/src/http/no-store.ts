import type { MiddlewareHandler } from 'hono'
import { addHeaders, answerParts } from './answer.ts'

/**
 * Every API answer is someone's own (Bearer, a login's token, a count) or changes from one moment to the
 * next, so no cache, the browser's or a shared one, may keep it. Photos already say `private, no-store`.
 */
export function noStore(): MiddlewareHandler {
  return async (c, next) => {
    await next()
    const current = answerParts(c)?.headers['cache-control'] ?? c.res.headers.get('cache-control')
    if (!current?.includes('no-store')) addHeaders(c, { 'cache-control': 'no-store' })
  }
}
