import { mkdirSync, mkdtempSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { Hono } from 'hono'
import { describe, expect, it } from 'vitest'
import type { Database } from './db/database.ts'
import { createTestApp, testDb } from './testing/test-app.ts'

/** A database whose connection can be cut and restored, as when PostgreSQL restarts. */
function flakyDb(inner: Database) {
  const state = { down: false }
  const gate = () => {
    if (state.down) throw Object.assign(new Error('connect ECONNREFUSED 127.0.0.1:5432'), { code: 'ECONNREFUSED' })
  }
  const db: Database = {
    ...inner,
    query: async (sql, params) => (gate(), inner.query(sql, params)),
    ping: async () => (gate(), inner.ping()),
  }
  return { db, state }
}

describe('the API envelope', () => {
  it('answers an unknown /api path with 404 NotFound in the envelope', async () => {
    const t = await createTestApp()
    for (const method of ['GET', 'POST', 'DELETE']) {
      const res = await t.request('/api/no/such/thing', { method })
      expect(res.status).toBe(404)
      expect(res.body).toMatchObject({ meta: { code: 'NotFound', status: 'NG' } })
      expect(typeof res.body.message).toBe('string')
    }
  })

  it('answers a body over the size limit with 413 before reading it all', async () => {
    const t = await createTestApp({ BODY_LIMIT_KB: '1' })
    const res = await t.request('/api/anything', { method: 'POST', json: { pad: 'x'.repeat(5000) } })
    expect(res.status).toBe(413)
    expect(res.body.meta).toEqual({ code: 'MaxFile', status: 'NG' })
  })

  it('answers 503 ServiceUnavailable with Retry-After while the database is down, and recovers', async () => {
    const { db, state } = flakyDb(await testDb())
    const t = await createTestApp({}, db)
    state.down = true
    const down = await t.request('/api/health')
    expect(down.status).toBe(503)
    expect(down.headers.get('retry-after')).toBe('5')
    expect(down.body.meta).toEqual({ code: 'ServiceUnavailable', status: 'NG' })
    state.down = false
    const up = await t.request('/api/health')
    expect(up.status).toBe(200)
  })

  it('answers an unexpected error with 500 and no stack or SQL, logging the detail with the request id', async () => {
    const inner = await testDb()
    const db: Database = { ...inner, ping: () => inner.query('select * from no_such_table_for_test').then(() => {}) }
    const t = await createTestApp({}, db)
    const res = await t.request('/api/health')
    expect(res.status).toBe(500)
    expect(res.body.meta).toEqual({ code: 'InternalServerError', status: 'NG' })
    const text = JSON.stringify(res.body)
    expect(text).not.toMatch(/no_such_table_for_test|select|at .*\.ts/)
    const id = res.headers.get('x-request-id')
    expect(id).toBeTruthy()
    expect(t.logs.some((l) => l.includes(id!) && l.includes('no_such_table_for_test'))).toBe(true)
  })
})

describe('serving the built app', () => {
  async function appWithDist() {
    const dist = mkdtempSync(join(tmpdir(), 'qh-dist-'))
    mkdirSync(join(dist, 'assets'))
    mkdirSync(join(dist, 'builds'))
    writeFileSync(
      join(dist, 'index.html'),
      '<!doctype html><html lang="vi"><title>Quy hoạch</title>' + ' '.repeat(2000),
    )
    writeFileSync(join(dist, 'assets/index-abc123.js'), 'console.log(1);'.repeat(200))
    writeFileSync(join(dist, 'sw.js'), 'self.x=1')
    writeFileSync(join(dist, 'manifest.webmanifest'), '{}')
    writeFileSync(join(dist, 'builds/latest.json'), '{"id":"b1","timestamp":1}')
    const t = await createTestApp()
    t.config.distDir = dist
    const { createApp } = await import('./app.ts')
    const app: Hono = createApp({
      config: t.config,
      db: t.db,
      logger: t.logger,
      mailer: { send: async () => {} },
      now: () => new Date(),
    }) as unknown as Hono
    return app
  }

  it('gives hashed assets a year of immutable caching and the shell no-cache', async () => {
    const app = await appWithDist()
    expect((await app.request('/assets/index-abc123.js')).headers.get('cache-control')).toBe(
      'public, max-age=31536000, immutable',
    )
    for (const path of ['/', '/sw.js', '/manifest.webmanifest']) {
      expect((await app.request(path)).headers.get('cache-control')).toBe('no-cache')
    }
    expect((await app.request('/builds/latest.json')).headers.get('cache-control')).toBe('no-store')
  })

  it('serves index.html for app routes so the app can show its own 404 page', async () => {
    const app = await appWithDist()
    const res = await app.request('/some/unknown/page')
    expect(res.status).toBe(200)
    expect(await res.text()).toContain('<html lang="vi">')
  })

  it('does not answer a missing hashed asset with the shell', async () => {
    const app = await appWithDist()
    expect((await app.request('/assets/index-gone.js')).status).toBe(404)
  })

  it('compresses text with brotli or gzip as the client accepts', async () => {
    const app = await appWithDist()
    expect(
      (await app.request('/assets/index-abc123.js', { headers: { 'accept-encoding': 'gzip, br' } })).headers.get(
        'content-encoding',
      ),
    ).toBe('br')
    expect(
      (await app.request('/assets/index-abc123.js', { headers: { 'accept-encoding': 'gzip' } })).headers.get(
        'content-encoding',
      ),
    ).toBe('gzip')
  })
})

describe('tile paths', () => {
  it('answers a malformed tile path with a 4xx envelope, not the app shell', async () => {
    const t = await createTestApp()
    for (const path of ['/tiles//%/%/%.pbf', '/tiles/basemap/1/2', '/tiles/x/y/z/w.pbf', '/tiles/']) {
      const res = await t.request(path)
      expect(res.status, path).toBeGreaterThanOrEqual(400)
      expect(res.status, path).toBeLessThan(500)
      expect(res.headers.get('content-type'), path).toMatch(/^application\/json/)
      expect(res.body.meta.status, path).toBe('NG')
    }
  })
})
