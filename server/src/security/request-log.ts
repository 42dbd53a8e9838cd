import type { MiddlewareHandler } from 'hono'
import type { AppEnv } from '../deps.ts'
import type { Logger } from '../logger.ts'

/**
 * One line per request with its request id, so an error line can be traced back to its request
 * across several server processes. Only method, path, status and time are written: never headers
 * (tokens), query strings (a surveyor's positions and searches) or bodies.
 */
export function requestLog(logger: Logger): MiddlewareHandler<AppEnv> {
  return async (c, next) => {
    const t0 = performance.now()
    await next()
    logger.info('request', {
      requestId: c.get('requestId'),
      method: c.req.method,
      path: c.req.path.slice(0, 200),
      status: c.res.status,
      ms: Math.round(performance.now() - t0),
    })
  }
}
