import { createHash } from 'node:crypto'
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { connect } from 'node:net'
import { join } from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { createTestUser } from '../accounts/test-user.ts'
import { listen } from '../http/listen.ts'
import { createTestApp, type TestApp } from '../testing/test-app.ts'
import { contentSecurityPolicy, inlineScriptHashes, tileSource } from './headers.ts'

const inlineScript = "document.documentElement.dataset.mode = 'dark'"

const dists: string[] = []
afterAll(() => dists.forEach((d) => rmSync(d, { recursive: true, force: true })))

/** A tiny build with one inline script, so the CSP hash is checked against a known file. */
function fakeDist(): string {
  const dir = mkdtempSync(join(tmpdir(), 'qh-dist-'))
  dists.push(dir)
  mkdirSync(join(dir, 'assets'))
  writeFileSync(
    join(dir, 'index.html'),
    `<!doctype html><html><head><script>${inlineScript}</script><script type="module" src="/assets/app.js"></script></head><body></body></html>`,
  )
  writeFileSync(join(dir, 'assets/app.js'), 'console.log(1)')
  return dir
}

let t: TestApp
beforeAll(async () => {
  t = await createTestApp({ DIST_DIR: fakeDist() })
})

const expectedCsp =
  "default-src 'self'; script-src 'self' 'sha256-" +
  createHash('sha256').update(inlineScript).digest('base64') +
  "'; worker-src 'self' blob:; img-src 'self' data: blob:; connect-src 'self'; style-src 'self' 'unsafe-inline'; " +
  "font-src 'self' data:; manifest-src 'self'; frame-ancestors 'none'; base-uri 'self'; form-action 'self'; object-src 'none'"

describe('security headers', () => {
  it.each([
    ['the app shell', '/', 200],
    ['an app route', '/valuation', 200],
    ['a hashed asset', '/assets/app.js', 200],
    ['the health check', '/api/health', 200],
    ['an unknown API path', '/api/khong-co', 404],
    ['a missing tile layer', '/tiles/khong-co.json', 404],
    ['a request without a token', '/api/auth/me', 401],
  ])('puts the CSP, nosniff, referrer and permissions policies on %s', async (_, path, status) => {
    const res = await t.request(path)
    expect(res.status).toBe(status)
    expect(res.headers.get('content-security-policy')).toBe(expectedCsp)
    expect(res.headers.get('x-content-type-options')).toBe('nosniff')
    expect(res.headers.get('referrer-policy')).toBe('strict-origin-when-cross-origin')
    expect(res.headers.get('permissions-policy')).toBe('geolocation=(self), camera=(self), microphone=()')
    expect(res.headers.get('strict-transport-security')).toBeNull()
  })

  it('puts the headers on a 400 for malformed JSON and on a 413 for an oversized body', async () => {
    const bad = await t.request('/api/auth/login', {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: '{"email":',
    })
    expect(bad.status).toBe(400)
    expect(bad.headers.get('content-security-policy')).toBe(expectedCsp)
    const big = await t.request('/api/auth/login', {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: 'x'.repeat(200 * 1024),
    })
    expect(big.status).toBe(413)
    expect(big.headers.get('x-content-type-options')).toBe('nosniff')
  })

  it('never allows inline scripts or eval, and allows inline styles only for styles', () => {
    const csp = contentSecurityPolicy({})
    const script = csp.split('; ').find((d) => d.startsWith('script-src '))
    expect(script).toBe("script-src 'self'")
    expect(csp).not.toContain("'unsafe-eval'")
    expect(csp.match(/'unsafe-inline'/g)).toHaveLength(1)
    expect(csp).toContain("style-src 'self' 'unsafe-inline'")
  })

  it('adds the raster basemap host of TILE_URL to img-src only', async () => {
    const withTiles = await createTestApp({
      DIST_DIR: fakeDist(),
      TILE_URL: 'https://{a-c}.tile.example.org/{z}/{x}/{y}.png',
    })
    const csp = (await withTiles.request('/')).headers.get('content-security-policy')!
    expect(csp).toContain("img-src 'self' data: blob: https://*.tile.example.org;")
    expect(csp).toContain("connect-src 'self';")
    expect(tileSource('https://tiles.example.vn:8443/osm/{z}/{x}/{y}.png')).toBe('https://tiles.example.vn:8443')
    expect(tileSource('javascript:alert(1)')).toBeNull()
    expect(tileSource("https://a.example.org;script-src *'/{z}")).toBeNull()
  })

  it('hashes each inline script of the page, and no script loaded from a file', () => {
    const html = '<script type="module" src="/a.js"></script><script>one()</script><SCRIPT >two()</SCRIPT>'
    expect(inlineScriptHashes(html)).toEqual([
      `'sha256-${createHash('sha256').update('one()').digest('base64')}'`,
      `'sha256-${createHash('sha256').update('two()').digest('base64')}'`,
    ])
  })
})

describe('HSTS', () => {
  it('is sent when PUBLIC_URL is https', async () => {
    const https = await createTestApp({ DIST_DIR: fakeDist(), PUBLIC_URL: 'https://quyhoach.example.vn' })
    expect((await https.request('/api/health')).headers.get('strict-transport-security')).toBe('max-age=31536000')
    expect((await https.request('/')).headers.get('strict-transport-security')).toBe('max-age=31536000')
  })

  it('follows X-Forwarded-Proto only behind a trusted proxy', async () => {
    const proxied = await createTestApp({ DIST_DIR: fakeDist(), TRUST_PROXY: 'true' })
    expect(
      (await proxied.request('/', { headers: { 'x-forwarded-proto': 'https' } })).headers.get(
        'strict-transport-security',
      ),
    ).toBe('max-age=31536000')
    expect(
      (await proxied.request('/', { headers: { 'x-forwarded-proto': 'http' } })).headers.get(
        'strict-transport-security',
      ),
    ).toBeNull()
    expect(
      (await t.request('/', { headers: { 'x-forwarded-proto': 'https' } })).headers.get('strict-transport-security'),
    ).toBeNull()
  })
})

describe('CORS', () => {
  it('gives a foreign origin no access to the API by default', async () => {
    const res = await t.request('/api/health', { headers: { origin: 'https://evil.example.com' } })
    expect(res.status).toBe(200)
    expect(res.headers.get('access-control-allow-origin')).toBeNull()
    expect(res.headers.get('vary')).toContain('Origin')
  })

  it('refuses a foreign preflight with 403 Forbidden in the envelope', async () => {
    const res = await t.request('/api/auth/me', {
      method: 'OPTIONS',
      headers: {
        origin: 'https://evil.example.com',
        'access-control-request-method': 'GET',
        'access-control-request-headers': 'authorization',
      },
    })
    expect(res.status).toBe(403)
    expect(res.body.meta).toEqual({ code: 'Forbidden', status: 'NG' })
    expect(res.headers.get('access-control-allow-origin')).toBeNull()
  })

  it('lets the origins listed in CORS_ORIGINS call the API, preflight included, and no others', async () => {
    const open = await createTestApp({
      DIST_DIR: fakeDist(),
      CORS_ORIGINS: 'https://doitac.example.vn, http://localhost:5173',
    })
    const pre = await open.request('/api/auth/me', {
      method: 'OPTIONS',
      headers: {
        origin: 'https://doitac.example.vn',
        'access-control-request-method': 'GET',
        'access-control-request-headers': 'authorization',
      },
    })
    expect(pre.status).toBe(204)
    expect(pre.headers.get('access-control-allow-origin')).toBe('https://doitac.example.vn')
    expect(pre.headers.get('access-control-allow-headers')).toContain('Authorization')
    const res = await open.request('/api/auth/me', { headers: { origin: 'http://localhost:5173' } })
    expect(res.status).toBe(401)
    expect(res.headers.get('access-control-allow-origin')).toBe('http://localhost:5173')
    expect(res.headers.get('access-control-expose-headers')).toContain('Retry-After')
    const other = await open.request('/api/auth/me', { headers: { origin: 'https://doitac.example.vn.evil.com' } })
    expect(other.headers.get('access-control-allow-origin')).toBeNull()
  })

  it('keeps public tiles readable from any origin', async () => {
    const res = await t.request('/tiles/parcels.json', { headers: { origin: 'https://evil.example.com' } })
    expect(res.status).toBe(200)
    expect(res.headers.get('access-control-allow-origin')).toBe('*')
  })

  it('refuses a CORS_ORIGINS entry that is not an origin, naming the variable', async () => {
    await expect(createTestApp({ CORS_ORIGINS: 'https://ok.example.vn,*' })).rejects.toThrow(/CORS_ORIGINS/)
  })
})

describe('API answers and caches', () => {
  it('marks every /api answer no-store and JSON in UTF-8: lookups, the account, usage, the login that carries a token, errors', async () => {
    const user = await createTestUser(t)
    const answers = [
      await t.request('/api/planning?lat=10.77&lng=106.70', { token: user.token }),
      await t.request('/api/auth/me', { token: user.token }),
      await t.request('/api/auth/usage', { token: user.token }),
      await t.request('/api/auth/login', { method: 'POST', json: { email: user.email, password: user.password } }),
      await t.request('/api/auth/me'),
      await t.request('/api/khong-co'),
      await t.request('/api/health'),
      await t.request('/api/openapi.json'),
    ]
    expect(answers[3]!.body.data.access_token).toMatch(/^[A-Za-z0-9_-]{43}$/)
    for (const res of answers) {
      expect(res.headers.get('cache-control')).toBe('no-store')
      expect(res.headers.get('content-type')).toBe('application/json; charset=utf-8')
    }
  })
})

describe('a request the HTTP layer cannot read', () => {
  it('answers a malformed Host with 400 in the envelope, with the security headers', async () => {
    const served = await listen(t.app.fetch, { port: 0, hostname: '127.0.0.1', config: t.config })
    try {
      const raw = await new Promise<string>((resolve, reject) => {
        let text = ''
        const socket = connect(served.port, '127.0.0.1', () =>
          socket.write('GET /api/health HTTP/1.1\r\nHost: evil example/x\r\nConnection: close\r\n\r\n'),
        )
        socket.on('data', (d: Buffer) => (text += d.toString('utf8')))
        socket.on('end', () => resolve(text))
        socket.on('error', reject)
      })
      const [head = '', body = ''] = raw.split('\r\n\r\n')
      expect(head).toMatch(/^HTTP\/1\.1 400 /)
      expect(head).toMatch(/^content-type: application\/json; charset=utf-8$/im)
      expect(head).toMatch(/^cache-control: no-store$/im)
      expect(head).toMatch(/^x-content-type-options: nosniff$/im)
      expect(head).toContain(`content-security-policy: ${expectedCsp}`)
      expect(JSON.parse(body)).toMatchObject({ meta: { code: 'BadRequest', status: 'NG' }, data: null })
    } finally {
      await served.close()
    }
  })
})
