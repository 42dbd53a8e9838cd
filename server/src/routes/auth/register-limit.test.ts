import { request } from 'node:http'
import type { AddressInfo } from 'node:net'
import { serve, type ServerType } from '@hono/node-server'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { createTestApp, uniqueEmail, type TestApp } from '../../testing/test-app.ts'

const LIMIT = 2
const password = 'mat-khau-dung-1'

type Served = { t: TestApp; server: ServerType; port: number }

async function serveApp(env: Record<string, string>): Promise<Served> {
  const t = await createTestApp({ REGISTRATIONS_PER_HOUR: String(LIMIT), ...env })
  const server: ServerType = await new Promise((resolve) => {
    const s = serve({ fetch: t.app.fetch, port: 0, hostname: '127.0.0.1' }, () => resolve(s))
  })
  return { t, server, port: (server.address() as AddressInfo).port }
}

// Every 127.x.y.z is this machine: a fresh source address per test keeps runs on a kept PostgreSQL
// database (whose counters outlive the run) from meeting the previous run's counts.
const loopbackSource = () => `127.${[0, 0, 0].map(() => 1 + Math.floor(Math.random() * 250)).join('.')}`
const randomV4 = () => `198.51.${Math.floor(Math.random() * 256)}.${1 + Math.floor(Math.random() * 250)}`
const randomV6Prefix = () =>
  `2001:db8:${Math.floor(Math.random() * 65536).toString(16)}:${Math.floor(Math.random() * 65536).toString(16)}`

/** POST /api/auth/register over a real socket from `from`, with an optional X-Forwarded-For. */
function register(
  s: Served,
  from: string,
  xff?: string,
): Promise<{ status: number; retryAfter: string | undefined; body: any }> {
  const body = JSON.stringify({ name: 'Người Đăng Ký', email: uniqueEmail('dk'), password })
  return new Promise((resolve, reject) => {
    const req = request(
      {
        host: '127.0.0.1',
        port: s.port,
        localAddress: from,
        method: 'POST',
        path: '/api/auth/register',
        headers: {
          'content-type': 'application/json',
          'content-length': Buffer.byteLength(body),
          ...(xff ? { 'x-forwarded-for': xff } : {}),
        },
      },
      (res) => {
        let text = ''
        res.setEncoding('utf8')
        res.on('data', (chunk: string) => (text += chunk))
        res.on('end', () =>
          resolve({ status: res.statusCode ?? 0, retryAfter: res.headers['retry-after'], body: JSON.parse(text) }),
        )
      },
    )
    req.on('error', reject)
    req.end(body)
  })
}

async function registerTimes(s: Served, n: number, from: () => [string, string?]) {
  const out = []
  for (let i = 0; i < n; i++) out.push(await register(s, ...from()))
  return out
}

describe('registration limit per address', () => {
  let direct: Served
  let proxied: Served
  beforeAll(async () => {
    direct = await serveApp({})
    proxied = await serveApp({ TRUST_PROXY: 'true' })
  })
  afterAll(() => {
    direct.server.close()
    proxied.server.close()
  })

  it('answers 429 TooManyRequests with Retry-After once one address has registered its limit', async () => {
    const from = loopbackSource()
    const answers = await registerTimes(direct, LIMIT + 1, () => [from])
    expect(answers.map((a) => a.status)).toEqual([201, 201, 429])
    const refused = answers[LIMIT]!
    expect(refused.body.meta.code).toBe('TooManyRequests')
    expect(refused.body.message).toMatch(/thử lại sau \d+ phút/)
    expect(Number(refused.retryAfter)).toBeGreaterThan(0)
    expect(Number(refused.retryAfter)).toBeLessThanOrEqual(3600)
    // Another address is not held back by it.
    expect((await register(direct, loopbackSource())).status).toBe(201)
  })

  it('ignores X-Forwarded-For without TRUST_PROXY, so a made-up header buys no new registrations', async () => {
    const from = loopbackSource()
    const answers = await registerTimes(direct, LIMIT + 1, () => [from, randomV4()])
    expect(answers.map((a) => a.status)).toEqual([201, 201, 429])
  })

  it('behind a proxy keys on the right-most hop, whatever a client prepends to the header', async () => {
    const client = randomV4()
    // The proxy connects from one address and appends the client's; the client spoofs the left part.
    const answers = await registerTimes(proxied, LIMIT + 1, () => [loopbackSource(), `${randomV4()}, ${client}`])
    expect(answers.map((a) => a.status)).toEqual([201, 201, 429])
    expect((await register(proxied, loopbackSource(), randomV4())).status).toBe(201)
  })

  it('counts every address of one IPv6 /64 together', async () => {
    const prefix = randomV6Prefix()
    let n = 0
    const answers = await registerTimes(proxied, LIMIT + 1, () => [
      loopbackSource(),
      `${prefix}:${(++n).toString(16)}::${n}`,
    ])
    expect(answers.map((a) => a.status)).toEqual([201, 201, 429])
    expect((await register(proxied, loopbackSource(), `${randomV6Prefix()}::1`)).status).toBe(201)
  })
})
