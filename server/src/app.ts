import { Hono } from 'hono'
import { isUnavailable } from './db/database.ts'
import type { AppEnv, Deps } from './deps.ts'
import { limitBody } from './http/body-limit.ts'
import { compressJson } from './http/compress.ts'
import { fail } from './http/envelope.ts'
import { requestId } from './http/request-id.ts'
import { settleBody } from './http/settle-body.ts'
import { DomainError } from './domain-errors.ts'
import { ApiError, apiErrorOf } from './http/errors.ts'
import { authRoutes } from './routes/auth/routes.ts'
import { healthRoutes } from './routes/health/routes.ts'
import { lookupRoutes } from './routes/lookups/routes.ts'
import { planRoutes } from './routes/plans/routes.ts'
import { placeRoutes } from './routes/places/routes.ts'
import { tileRoutes } from './routes/tiles/routes.ts'
import { uploadRoutes } from './routes/uploads/routes.ts'
import { overlayRoutes } from './routes/overlays/routes.ts'
import { openApiRoutes } from './routes/openapi/routes.ts'
import { endpoint, SEGMENT } from './openapi/describe.ts'
import { buildInfo } from '#core/contract/system.ts'
import { uploadLimits } from './uploads/multipart.ts'
import { isUnstorableText } from './security/bad-text.ts'
import { securityHeaders } from './security/headers.ts'
import { requestLog } from './security/request-log.ts'
import { loadStaticSite, serveStatic } from './static.ts'

export function createApp(deps: Deps) {
  const app = new Hono<AppEnv>()

  // Outermost, so it sees the final answer: a body the handler left unread is drained or the
  // connection closed cleanly after the answer, never reset. Up to the largest upload is drained.
  app.use('*', settleBody({ drainMaxBytes: uploadLimits.maxBodyBytes, lingerMs: 5_000 }))
  // Next, so every answer (errors and 404s included) carries the security headers.
  app.use('*', securityHeaders(deps.config))
  app.use('*', requestId())
  app.use('*', requestLog(deps.logger))
  app.use('/api/*', compressJson())
  // 413 has one code in the contract; the message says what was too large.
  const jsonLimit = limitBody(deps.config.bodyLimitBytes, (c) => fail(c, 'MaxFile', 'Dữ liệu gửi lên quá lớn.'))
  app.use('/api/*', (c, next) => {
    // Uploads carry photos and set their own, larger limit.
    if (c.req.path.startsWith('/api/uploads')) return next()
    return jsonLimit(c, next)
  })

  app.route('/api', healthRoutes(deps))
  app.route('/api', openApiRoutes(app))
  app.route('/api/auth', authRoutes(deps))
  app.route('/api', lookupRoutes(deps))
  app.route('/api/plans', planRoutes(deps))
  app.route('/api/places', placeRoutes(deps))
  app.route('/api/uploads', uploadRoutes(deps))

  app.all('/api/*', (c) => fail(c, 'NotFound', 'Không có đường dẫn API này.'))

  // Raster overlays first: /tiles/overlays.json would otherwise be read as a vector layer's TileJSON.
  app.route('/tiles', overlayRoutes(deps))
  app.route('/tiles', tileRoutes(deps))
  // A malformed tile path is a client error in the envelope, never the app shell.
  app.all('/tiles/*', (c) => fail(c, 'NotFound', 'Không có ô bản đồ này.'))

  const fromSite = serveStatic(loadStaticSite(deps.config.distDir))
  // The build's id, written by the build and polled by the app: files of the site, declared for the API's description.
  app.get(
    '/builds/latest.json',
    endpoint({ summary: 'Bản dựng đang chạy', tag: 'system', answer: { json: buildInfo }, codes: [], fromFiles: true }),
    fromSite,
  )
  app.get(
    `/builds/meta/:file{${SEGMENT}+\\.json}`,
    endpoint({
      summary: 'Thông tin một bản dựng ({id}.json)',
      tag: 'system',
      pathParams: { file: '{id}.json' },
      answer: { json: buildInfo },
      codes: [],
      fromFiles: true,
    }),
    fromSite,
  )
  app.get('*', fromSite)

  app.onError((thrown, c) => {
    const err = thrown instanceof DomainError ? apiErrorOf(thrown) : thrown
    if (err instanceof ApiError)
      return fail(c, err.code, err.message, { errors: err.errors, headers: err.headers, usage: err.usage })
    const id = c.get('requestId')
    if (isUnstorableText(err))
      return fail(c, 'BadRequest', 'Dữ liệu gửi lên chứa ký tự không hợp lệ (ví dụ ký tự NUL).')
    if (isUnavailable(err)) {
      deps.logger.warn('database unavailable', { requestId: id, error: String(err) })
      return fail(c, 'ServiceUnavailable', undefined, { headers: { 'Retry-After': '5' } })
    }
    deps.logger.error('unexpected error', {
      requestId: id,
      path: c.req.path,
      error: err instanceof Error ? err.stack : String(err),
    })
    return fail(c, 'InternalServerError')
  })

  return app
}
