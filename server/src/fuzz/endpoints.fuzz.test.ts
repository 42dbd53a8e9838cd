import fc from 'fast-check'
import { Agent, request } from 'node:http'
import { beforeAll, describe, expect, it } from 'vitest'
import { createTestUser, type TestUser } from '../accounts/test-user.ts'
import { listen } from '../http/listen.ts'
import { demoLoaded } from '../testing/demo.ts'
import { createTestApp, uniqueEmail, type TestApp } from '../testing/test-app.ts'
import { photo } from '../routes/uploads/test-images.ts'
import {
  authorization,
  encode,
  headerValue,
  jsonBodies,
  keyText,
  nastyString,
  numberText,
  queryString,
} from './arbitraries.ts'
import { expectSound, send } from './answer.ts'

// Sized so this file runs in well under a minute on two busy cores; login, register and reset
// pay for a memory-hard password hash each, so they get fewer runs than the cheap endpoints.
const CHEAP = 60
const HASHING = 15

let t: TestApp
let user: TestUser
let realPhoto: Uint8Array
// A demo parcel, around which lookups land on real parcels now and then.
const demo = { lat: 0, lng: 0 }

beforeAll(async () => {
  const db = await demoLoaded()
  const [spot] = await db.query<{ lat: number; lng: number }>(
    "select ST_Y(ST_PointOnSurface(geom))::float8 as lat, ST_X(ST_PointOnSurface(geom))::float8 as lng from parcels where dataset_id = 'demo' order by id limit 1",
  )
  Object.assign(demo, spot)
  // Trusted proxy: each run speaks from its own random IP, so rate limits answer 429 only as they should.
  t = await createTestApp({ TRUST_PROXY: 'true', DAILY_LOOKUP_LIMIT: '1000000' })
  user = await createTestUser(t)
  realPhoto = await photo('png', 24, 16)
})

const ip = fc.tuple(fc.nat(255), fc.nat(255), fc.nat(255)).map(([a, b, c]) => `10.${a}.${b}.${c}`)
const email = fc.oneof(
  fc.constant(null).map(() => JSON.stringify(uniqueEmail('fuzz'))),
  fc.constantFrom('"A@B.VN "', '"ten@vidu.vn"', '"a@b"', '"@"'),
)
const password = fc.constantFrom(
  '"mat-khau-thu-1"',
  '"1234567"',
  JSON.stringify('p'.repeat(129)),
  '"\\u0000\\u0000\\u0000\\u0000\\u0000\\u0000\\u0000\\u0000"',
)
// Chained, so the demo parcel found in beforeAll is read when values are drawn, not when tests are listed.
const coordinate = (axis: 'lat' | 'lng') =>
  fc.oneof(
    fc
      .constant(axis)
      .chain((a) => fc.double({ min: demo[a] - 0.0005, max: demo[a] + 0.0005, noNaN: true }).map(String)),
    numberText,
  )

async function post(
  path: string,
  body: { type: string; body: string | Uint8Array },
  extra: Record<string, string | undefined> = {},
) {
  const res = await send(t, path, {
    method: 'POST',
    headers: { 'content-type': body.type || undefined, ...extra },
    body: body.body,
  })
  expectSound(res, path)
}

describe('hostile JSON bodies', () => {
  it.each([
    ['/api/auth/register', { name: nastyString.map((s) => JSON.stringify(s)), email, password }],
    ['/api/auth/login', { email, password }],
    ['/api/auth/forgotPassword', { email }],
    [
      '/api/auth/resetPassword',
      { code: fc.constantFrom('"ABCDEF-123456"', '"abcdef123456"', '"K7QPM2-48291"'), new_password: password },
    ],
  ] as const)('%s never answers 5xx and always answers the envelope', async (path, fields) => {
    await fc.assert(
      fc.asyncProperty(jsonBodies(fields), ip, async (body, from) => post(path, body, { 'x-forwarded-for': from })),
      {
        numRuns: HASHING,
        examples: [
          [
            {
              type: 'application/json',
              body: `{"name":"a\\u0000b","email":${JSON.stringify(uniqueEmail('nul'))},"password":"mat-khau-thu-1"}`,
            },
            '10.9.9.9',
          ],
        ],
      },
    )
  })

  it('/api/valuation never answers 5xx and always answers the envelope', async () => {
    const ids = fc.array(fc.oneof(nastyString, fc.uuid()), { maxLength: 6 }).map((xs) => JSON.stringify(xs))
    const fields = {
      lat: coordinate('lat'),
      lng: coordinate('lng'),
      area_m2: numberText,
      frontage_m: numberText,
      alley_width_m: numberText,
      floors: numberText,
      image_ids: ids,
    }
    await fc.assert(
      fc.asyncProperty(jsonBodies(fields), async (body) =>
        post('/api/valuation', body, { authorization: `Bearer ${user.token}` }),
      ),
      { numRuns: CHEAP },
    )
  })

  it('bodyless auth endpoints ignore whatever body comes with them', async () => {
    await fc.assert(
      fc.asyncProperty(
        jsonBodies({ token: nastyString.map((s) => JSON.stringify(s)) }),
        fc.constantFrom('/api/auth/logout', '/api/health'),
        async (body, path) => post(path, body, { authorization: 'Bearer ' + 'B'.repeat(43) }),
      ),
      { numRuns: CHEAP / 2 },
    )
  })
})

describe('hostile query strings and paths', () => {
  it.each([
    ['/api/planning', ['lat', 'lng'], fc.oneof(coordinate('lat'), coordinate('lng'))],
    [
      '/api/search',
      ['q', 'limit'],
      fc.oneof(nastyString, fc.constantFrom('nguyen hue', 'Nguyễn', '%', '_', '\\', '*'), numberText),
    ],
    ['/api/parcels', ['province', 'ward', 'sheet_no', 'parcel_no'], fc.oneof(nastyString, numberText)],
    ['/api/auth/usage', ['day'], nastyString],
  ] as const)('GET %s never answers 5xx and always answers the envelope', async (path, keys, plausible) => {
    await fc.assert(
      fc.asyncProperty(queryString([...keys], plausible), async (qs) => {
        const url = `${path}?${qs}`
        expectSound(await send(t, url, { headers: { authorization: `Bearer ${user.token}` } }), url)
      }),
      // Found by this test: a NUL reached PostgreSQL and answered 500.
      { numRuns: CHEAP, examples: [[`${keys[0]}=%00`], [`${keys[0]}=a%00b&${keys[0]}=%ED%A0%80`]] },
    )
  })

  it('paths under /api, /tiles and the app answer without 5xx, whatever their segments', async () => {
    const segment = fc.oneof(
      nastyString.map(encode),
      fc.constantFrom(
        '%',
        '%zz',
        '%2e%2e',
        '..',
        '.',
        '%2F',
        '%C0%AF',
        '0',
        '-1',
        '99999999',
        '22',
        'parcels',
        'planning',
        'basemap',
      ),
    )
    const path = fc.oneof(
      segment.map((s) => `/api/uploads/${s}`),
      segment.map((s) => `/api/uploads/${s}/thumb`),
      fc.tuple(segment, segment, segment, segment).map(([l, z, x, y]) => `/tiles/${l}/${z}/${x}/${y}.pbf`),
      segment.map((s) => `/tiles/${s}.json`),
      fc.array(segment, { minLength: 1, maxLength: 4 }).map((s) => `/api/${s.join('/')}`),
      fc.array(segment, { minLength: 1, maxLength: 3 }).map((s) => `/${s.join('/')}`),
    )
    const method = fc.constantFrom('GET', 'POST', 'PUT', 'DELETE', 'PATCH', 'OPTIONS', 'HEAD')
    await fc.assert(
      fc.asyncProperty(path, method, async (p, m) => {
        const res = await send(t, p, { method: m, headers: { authorization: `Bearer ${user.token}` } })
        expectSound(res, p, m)
      }),
      // Found by this test: a malformed escape in an app path answered 500.
      {
        numRuns: CHEAP * 2,
        examples: [
          ['/%', 'GET'],
          ['/tiles//%/%/%.pbf', 'GET'],
          ['/assets/%zz.js', 'GET'],
        ],
      },
    )
  })
})

describe('hostile headers', () => {
  it('garbage Authorization, X-Forwarded-For, Accept-Encoding, If-None-Match and X-Request-Id never break an endpoint', async () => {
    const target = fc.constantFrom(
      '/api/auth/me',
      '/api/auth/usage',
      `/api/planning?lat=${demo.lat}&lng=${demo.lng}`,
      '/api/search?q=nguyen',
      '/api/parcels?province=x&ward=y&sheet_no=1&parcel_no=1',
      '/api/uploads/00000000-0000-0000-0000-000000000000',
      '/tiles/parcels/15/26145/15390.pbf',
      '/tiles/basemap.json',
      '/api/health',
      '/',
    )
    await fc.assert(
      fc.asyncProperty(
        target,
        authorization(user.token),
        headerValue,
        headerValue,
        headerValue,
        headerValue,
        async (path, auth, xff, enc, inm, rid) => {
          const res = await send(t, path, {
            headers: {
              authorization: auth,
              'x-forwarded-for': xff,
              'accept-encoding': enc,
              'if-none-match': inm,
              'x-request-id': rid,
              'x-forwarded-proto': xff,
            },
          })
          expectSound(res, path)
        },
      ),
      { numRuns: CHEAP * 2 },
    )
  })
})

describe('hostile multipart uploads', () => {
  const crlf = '\r\n'
  const encoder = new TextEncoder()

  function multipart(
    boundary: string,
    parts: { name: string; filename?: string; type?: string; bytes: Uint8Array }[],
    close: boolean,
  ): Uint8Array {
    const chunks: Uint8Array[] = []
    for (const p of parts) {
      const disposition = `form-data; name="${p.name}"${p.filename === undefined ? '' : `; filename="${p.filename}"`}`
      chunks.push(
        encoder.encode(
          `--${boundary}${crlf}Content-Disposition: ${disposition}${crlf}${p.type ? `Content-Type: ${p.type}${crlf}` : ''}${crlf}`,
        ),
        p.bytes,
        encoder.encode(crlf),
      )
    }
    if (close) chunks.push(encoder.encode(`--${boundary}--${crlf}`))
    return Buffer.concat(chunks)
  }

  const bytes = fc.oneof(
    fc.uint8Array({ maxLength: 300 }),
    fc.constant(null).map(() => realPhoto),
    fc.integer({ min: 1, max: 60 }).map((n) => realPhoto.slice(0, n)),
    fc.constant(new Uint8Array([0xff, 0xd8, 0xff, 0xe0, 0, 0x10, 0x4a, 0x46, 0x49, 0x46])),
    fc.constant(encoder.encode('<svg xmlns="http://www.w3.org/2000/svg" onload="alert(1)"/>')),
  )
  const part = fc.record({
    name: fc.oneof(
      fc.constantFrom('images', 'images', 'image', 'images[]', ''),
      keyText.map((k) => k.replace(/["\r\n]/g, '')),
    ),
    filename: fc.option(
      fc.oneof(
        fc.constantFrom('a.jpg', '../../x.png', 'ảnh.webp', 'a"b.jpg', '\u202Egpj.exe', ''),
        headerValue.map((h) => h.replace(/"/g, '')),
      ),
      { nil: undefined },
    ),
    type: fc.option(
      fc.constantFrom(
        'image/jpeg',
        'image/png',
        'image/svg+xml',
        'text/html',
        'application/octet-stream',
        'image/webp; x=y',
      ),
      { nil: undefined },
    ),
    bytes,
  })
  const boundary = fc.oneof(
    fc.constantFrom('b0undary', 'x', '----WebKitFormBoundary7MA4YWxkTrZu0gW', 'a'.repeat(70)),
    fc.stringMatching(/^[A-Za-z0-9'()+_,./:=?-]{1,70}$/),
  )

  it('/api/uploads never answers 5xx and always answers the envelope', async () => {
    const header = fc
      .tuple(boundary, fc.constantFrom('ok', 'none', 'other', 'quoted', 'json'))
      .map(([b, how]) =>
        how === 'ok'
          ? `multipart/form-data; boundary=${b}`
          : how === 'none'
            ? 'multipart/form-data'
            : how === 'other'
              ? `multipart/form-data; boundary=${b}X`
              : how === 'quoted'
                ? `multipart/form-data; boundary="${b}"`
                : 'application/json',
      )
    await fc.assert(
      fc.asyncProperty(
        boundary,
        fc.array(part, { maxLength: 6 }),
        fc.boolean(),
        fc.option(headerValue, { nil: undefined }),
        async (b, parts, close, key) => {
          const type = `multipart/form-data; boundary=${b}`
          const res = await send(t, '/api/uploads', {
            method: 'POST',
            headers: { 'content-type': type, authorization: `Bearer ${user.token}`, 'idempotency-key': key },
            body: multipart(b, parts, close),
          })
          expectSound(res, '/api/uploads')
        },
      ),
      { numRuns: CHEAP },
    )
    await fc.assert(
      fc.asyncProperty(header, fc.array(part, { maxLength: 3 }), async (type, parts) => {
        const res = await send(t, '/api/uploads', {
          method: 'POST',
          headers: { 'content-type': type, authorization: `Bearer ${user.token}` },
          body: multipart('b0undary', parts, true),
        })
        expectSound(res, '/api/uploads')
      }),
      { numRuns: CHEAP / 2 },
    )
  })

  it('/api/uploads on a keep-alive connection: every answer arrives whole and the same socket serves the next request', async () => {
    const served = await listen(t.app.fetch, { port: 0, hostname: '127.0.0.1', config: t.config })
    const agent = new Agent({ keepAlive: true, maxSockets: 1 })
    try {
      await fc.assert(
        fc.asyncProperty(
          boundary,
          fc.array(part, { maxLength: 6 }),
          fc.boolean(),
          fc.boolean(),
          async (b, parts, close, withToken) => {
            const body = multipart(b, parts, close)
            const headers = {
              'content-type': `multipart/form-data; boundary=${b}`,
              'content-length': body.length,
              ...(withToken ? { authorization: `Bearer ${user.token}` } : {}),
            }
            const first = await overSocket(agent, served.port, 'POST', '/api/uploads', headers, body)
            expect(first.status, first.text).toBeLessThan(500)
            expect(JSON.parse(first.text).meta.code).toEqual(expect.any(String))
            const next = await overSocket(agent, served.port, 'GET', '/api/health', {})
            expect(next.status).toBe(200)
            expect(next.socket).toBe(first.socket)
          },
        ),
        { numRuns: CHEAP / 3 },
      )
    } finally {
      agent.destroy()
      await served.close()
    }
  })
})

/** One request through `agent`; resolves with the answer and the socket it came on. */
function overSocket(
  agent: Agent,
  port: number,
  method: string,
  path: string,
  headers: Record<string, string | number>,
  body?: Uint8Array,
) {
  return new Promise<{ status: number; text: string; socket: unknown }>((resolve, reject) => {
    let socket: unknown
    const req = request({ agent, host: '127.0.0.1', port, method, path, headers }, (res) => {
      let text = ''
      res.setEncoding('utf8')
      res.on('data', (d: string) => (text += d))
      res.on('end', () => resolve({ status: res.statusCode ?? 0, text, socket }))
    })
    req.on('socket', (s) => (socket = s))
    req.on('error', reject)
    req.end(body)
  })
}
