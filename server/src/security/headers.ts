import { createHash } from 'node:crypto'
import { existsSync, readFileSync } from 'node:fs'
import { join } from 'node:path'
import type { MiddlewareHandler } from 'hono'
import type { Config } from '../config.ts'
import type { AppEnv } from '../deps.ts'
import { addHeaders } from '../http/answer.ts'
import { fail, failBody } from '../http/envelope.ts'

export type SecurityConfig = Pick<Config, 'publicUrl' | 'trustProxy' | 'tileUrl' | 'corsOrigins' | 'distDir'>

/**
 * The host part of TILE_URL for img-src. The template's `{z}`, `{x}`, `{y}` and `{a-c}` sub-domain
 * placeholders are no valid URL, so a `{a-c}.tile.example.org` host becomes `*.tile.example.org`.
 */
export function tileSource(tileUrl: string | undefined): string | null {
  if (!tileUrl) return null
  const match = /^(https?):\/\/([^/?#]+)/i.exec(tileUrl.trim())
  if (!match) return null
  const scheme = match[1]!.toLowerCase()
  const host = match[2]!.toLowerCase().replace(/^\{[^}]*\}\./, '*.')
  if (!/^(\*\.)?[a-z0-9.-]+(:\d{1,5})?$/.test(host)) return null
  return `${scheme}://${host}`
}

/**
 * sha256 sources for the inline scripts of the built index.html. The build keeps one small inline
 * script (it paints the saved colour mode and picks the boot shell's page before the bundle loads);
 * naming it by hash lets it run while every other inline script, such as an injected one, stays blocked.
 */
export function inlineScriptHashes(html: string): string[] {
  const hashes: string[] = []
  for (const m of html.matchAll(/<script\b([^>]*)>([\s\S]*?)<\/script>/gi)) {
    if (/\bsrc\s*=/i.test(m[1] ?? '')) continue
    hashes.push(
      `'sha256-${createHash('sha256')
        .update(m[2] ?? '')
        .digest('base64')}'`,
    )
  }
  return hashes
}

export function contentSecurityPolicy(opts: { tileUrl?: string | undefined; scriptHashes?: string[] }): string {
  const tiles = tileSource(opts.tileUrl)
  const directives: [string, ...string[]][] = [
    ['default-src', "'self'"],
    ['script-src', "'self'", ...(opts.scriptHashes ?? [])],
    // OpenLayers may start blob: workers; the service worker itself is a same-origin file.
    ['worker-src', "'self'", 'blob:'],
    ['img-src', "'self'", 'data:', 'blob:', ...(tiles ? [tiles] : [])],
    ['connect-src', "'self'"],
    // Mantine writes <style> tags at run time and index.html styles its boot shell inline; inline is
    // allowed for styles only, never for scripts.
    ['style-src', "'self'", "'unsafe-inline'"],
    ['font-src', "'self'", 'data:'],
    ['manifest-src', "'self'"],
    ['frame-ancestors', "'none'"],
    ['base-uri', "'self'"],
    ['form-action', "'self'"],
    ['object-src', "'none'"],
  ]
  return directives.map((d) => d.join(' ')).join('; ')
}

/** Served over HTTPS: PUBLIC_URL says so, or a trusted proxy reports that the client used HTTPS. */
export function isHttps(config: Pick<Config, 'publicUrl' | 'trustProxy'>, forwardedProto: string | undefined): boolean {
  if (config.publicUrl.startsWith('https:')) return true
  return config.trustProxy && forwardedProto?.split(',')[0]?.trim().toLowerCase() === 'https'
}

const PERMISSIONS_POLICY = 'geolocation=(self), camera=(self), microphone=()'
// Only on HTTPS answers: a host reached over plain HTTP (a LAN address in the field) must stay reachable.
const HSTS = 'max-age=31536000'
const CORS_ALLOW_HEADERS = 'Authorization, Content-Type, Idempotency-Key'
const CORS_EXPOSE_HEADERS = 'Retry-After, X-Request-Id'

/** The headers every answer carries whatever was asked (lower-case names); HSTS and CORS depend on the request. */
export function fixedSecurityHeaders(config: SecurityConfig): Record<string, string> {
  const indexHtml = join(config.distDir, 'index.html')
  const csp = contentSecurityPolicy({
    tileUrl: config.tileUrl,
    scriptHashes: existsSync(indexHtml) ? inlineScriptHashes(readFileSync(indexHtml, 'utf8')) : [],
  })
  return {
    'content-security-policy': csp,
    'x-content-type-options': 'nosniff',
    'referrer-policy': 'strict-origin-when-cross-origin',
    'permissions-policy': PERMISSIONS_POLICY,
  }
}

/**
 * The answer to a request the HTTP layer could not make into a Request (a malformed Host, a backslash
 * in the path): 400 in the envelope with the security headers, as the app would answer it.
 */
export function malformedRequestAnswer(config: SecurityConfig): () => Response {
  const headers = {
    ...fixedSecurityHeaders(config),
    ...(isHttps(config, undefined) ? { 'strict-transport-security': HSTS } : {}),
    'content-type': 'application/json; charset=utf-8',
    'cache-control': 'no-store',
  }
  const body = JSON.stringify(failBody('BadRequest', 'Yêu cầu không hợp lệ (địa chỉ hoặc tiêu đề Host sai dạng).'))
  return () => new Response(body, { status: 400, headers })
}

/**
 * Security headers on every answer (app, API, tiles, errors), and CORS for the API: same-origin only
 * unless CORS_ORIGINS lists other origins. Tiles keep their own `Access-Control-Allow-Origin: *`.
 */
export function securityHeaders(config: SecurityConfig): MiddlewareHandler<AppEnv> {
  const allowed = new Set(config.corsOrigins)
  const always = fixedSecurityHeaders(config)

  return async (c, next) => {
    const origin = c.req.header('origin')
    const api = c.req.path.startsWith('/api/')
    const corsAllowed = api && origin !== undefined && allowed.has(origin)

    if (api && c.req.method === 'OPTIONS' && origin !== undefined && c.req.header('access-control-request-method')) {
      // A preflight is answered here: the routes behind know nothing of OPTIONS.
      if (!corsAllowed) {
        c.res = fail(c, 'Forbidden', 'Trang web này không được phép gọi API.')
      } else {
        c.res = c.body(null, 204, {
          'Access-Control-Allow-Origin': origin,
          'Access-Control-Allow-Methods': 'GET, POST, OPTIONS',
          'Access-Control-Allow-Headers': CORS_ALLOW_HEADERS,
          'Access-Control-Max-Age': '600',
          Vary: 'Origin',
        })
      }
    } else {
      await next()
    }

    const headers: Record<string, string> = { ...always }
    if (isHttps(config, c.req.header('x-forwarded-proto'))) headers['strict-transport-security'] = HSTS
    if (api) {
      headers.vary = 'Origin'
      if (corsAllowed) {
        headers['access-control-allow-origin'] = origin
        headers['access-control-expose-headers'] = CORS_EXPOSE_HEADERS
      }
    }
    addHeaders(c, headers)
  }
}
