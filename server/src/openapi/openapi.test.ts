import { beforeAll, describe, expect, it } from 'vitest'
import { uniqueSymbol } from 'hono-openapi'
import { z } from 'zod'
import { failureSchema } from '#core/contract/envelope.ts'
import { createTestUser, type TestUser } from '../accounts/test-user.ts'
import { demoLoaded } from '../testing/demo.ts'
import { form, photo } from '../routes/uploads/test-images.ts'
import { createTestApp, type TestApp } from '../testing/test-app.ts'

type Operation = {
  responses: Record<string, unknown>
  parameters: { name: string; in: string }[]
  security?: unknown[]
}
type Doc = {
  openapi: string
  info: { title: string; version: string }
  paths: Record<string, Record<string, Operation>>
  components: { schemas: Record<string, unknown> }
}

let t: TestApp
let user: TestUser
let doc: Doc

beforeAll(async () => {
  await demoLoaded()
  t = await createTestApp({ DAILY_LOOKUP_LIMIT: '1000' })
  user = await createTestUser(t)
  doc = (await t.request('/api/openapi.json')).body as Doc
})

/** Hono's '/tiles/:layer/:z/:x/:file{[^/]*\\.pbf}' as OpenAPI writes it: '/tiles/{layer}/{z}/{x}/{file}'. */
const asOpenApiPath = (path: string) => path.replace(/:(\w+)(\{[^}]*\})?/g, '{$1}')

type Validate = (value: unknown) => { issues?: readonly { message: string; path?: unknown }[] }
type Described = {
  spec: { responses: Record<string, { content?: Record<string, { schema: { validate?: Validate } }> }> }
}

/** The description declared on the route itself: the answers' schemas as the route's `endpoint(…)` holds them. */
function describedAt(method: string, path: string): Described['spec'] {
  for (const r of t.app.routes) {
    const described = (r.handler as unknown as Record<symbol, Described | undefined>)[uniqueSymbol]
    if (described?.spec && r.method === method.toUpperCase() && asOpenApiPath(r.path) === path) return described.spec
  }
  throw new Error(`no description declared for ${method} ${path}`)
}

/** Checks an answer against the schema its route declares, and its status against the document. */
function expectDocumented(method: string, path: string, res: { status: number; body: unknown }) {
  expect(Object.keys(doc.paths[path]?.[method]?.responses ?? {})).toContain(String(res.status))
  if (res.status >= 400) {
    const parsed = z.safeParse(failureSchema, res.body)
    expect(parsed.success, parsed.success ? '' : z.prettifyError(parsed.error)).toBe(true)
    return
  }
  const validate = describedAt(method, path).responses[res.status]?.content?.['application/json']?.schema.validate
  expect(validate, `${method} ${path} ${res.status} declares a JSON schema`).toBeDefined()
  expect(validate!(res.body).issues ?? []).toEqual([])
}

describe('the OpenAPI document at /api/openapi.json', () => {
  it('is an OpenAPI 3.1 document whose every operation has a success answer, its path parameters and resolvable references', () => {
    expect(doc.openapi).toBe('3.1.0')
    expect(doc.info.title).not.toBe('')
    for (const [path, ops] of Object.entries(doc.paths)) {
      const inTemplate = [...path.matchAll(/\{(\w+)\}/g)].map((m) => m[1])
      for (const [method, op] of Object.entries(ops)) {
        expect(
          Object.keys(op.responses).some((s) => s.startsWith('2')),
          `${method} ${path}`,
        ).toBe(true)
        expect(
          op.parameters
            .filter((p) => p.in === 'path')
            .map((p) => p.name)
            .sort(),
          `${method} ${path}`,
        ).toEqual([...inTemplate].sort())
      }
    }
    for (const ref of JSON.stringify(doc).matchAll(/"\$ref":"#\/components\/schemas\/(\w+)"/g))
      expect(doc.components.schemas).toHaveProperty(ref[1]!)
  })

  it('covers every route the server registers, and describes no route the server does not answer', () => {
    const registered = new Set(
      t.app.routes
        .filter((r) => r.method !== 'ALL' && !/(^|\/)\*$/.test(r.path))
        .map((r) => `${r.method.toLowerCase()} ${asOpenApiPath(r.path)}`),
    )
    const documented = new Set(
      Object.entries(doc.paths).flatMap(([path, ops]) => Object.keys(ops).map((m) => `${m} ${path}`)),
    )
    expect([...registered].filter((r) => !documented.has(r))).toEqual([])
    expect([...documented].filter((d) => !registered.has(d))).toEqual([])
  })

  it('describes the query parameters the planning lookup validates, and marks the counted lookups as needing a token', () => {
    const planning = doc.paths['/api/planning']!.get!
    expect(planning.parameters.map((p) => `${p.in}:${p.name}`).sort()).toEqual(['query:lat', 'query:lng'])
    expect(planning.security).toEqual([{ bearer: [] }])
    expect(Object.keys(planning.responses)).toEqual(
      expect.arrayContaining(['200', '400', '401', '404', '429', '500', '503']),
    )
  })
})

describe('real answers match the document', () => {
  it('GET /api/health answers as documented', async () => {
    expectDocumented('get', '/api/health', await t.request('/api/health'))
  })

  it('a planning lookup inside the demo ward answers as documented, and so does one without a token', async () => {
    const spot = await t.db.query<{ lat: number; lng: number }>(
      `select ST_Y(ST_PointOnSurface(geom))::float8 as lat, ST_X(ST_PointOnSurface(geom))::float8 as lng from parcels where dataset_id = 'demo' order by id limit 1`,
    )
    const { lat, lng } = spot[0]!
    expectDocumented(
      'get',
      '/api/planning',
      await t.request(`/api/planning?lat=${lat}&lng=${lng}`, { token: user.token }),
    )
    const refused = await t.request(`/api/planning?lat=${lat}&lng=${lng}`)
    expect(refused.status).toBe(401)
    expectDocumented('get', '/api/planning', refused)
  })

  it('an upload answers 201 as documented, and a register too', async () => {
    const { body, contentType } = await form([{ bytes: await photo('png', 32, 24), filename: 'a.png' }])
    const upload = await t.request('/api/uploads', {
      method: 'POST',
      body,
      headers: { 'content-type': contentType },
      token: user.token,
    })
    expect(upload.status).toBe(201)
    expectDocumented('post', '/api/uploads', upload)
    const email = `openapi-${Date.now()}@example.vn`
    const register = await t.request('/api/auth/register', {
      method: 'POST',
      json: { name: 'Tài liệu', email, password: 'mat-khau-dai-du' },
    })
    expect(register.status).toBe(201)
    expectDocumented('post', '/api/auth/register', register)
  })

  it('a search and a TileJSON answer as documented', async () => {
    expectDocumented('get', '/api/search', await t.request('/api/search?q=nguyen', { token: user.token }))
    expectDocumented('get', '/tiles/{name}', await t.request('/tiles/planning.json'))
  })
})

describe('the API page at /api/docs', () => {
  it('lists every documented route in plain HTML with no script, so the site CSP allows it', async () => {
    const res = await t.app.request('/api/docs')
    expect(res.status).toBe(200)
    const html = await res.text()
    expect(html).not.toMatch(/<script|style=/i)
    for (const path of Object.keys(doc.paths)) expect(html).toContain(path.replace(/&/g, '&amp;'))
    expect(res.headers.get('content-security-policy')).toMatch(/script-src 'self'/)
  })
})
