import autocannon from 'autocannon'
import { loadResult, type LoadResult } from './stats.ts'

export type HttpRequest = { method: 'GET' | 'POST'; path: string; body?: string }

/**
 * autocannon against the loopback server: `connections` keep-alive connections, each sending the next
 * request of `next(i)` as soon as the previous answered, for `durationMs` or `amount` requests. Latency
 * percentiles come from every response (not autocannon's per-second buckets), counted the same way as
 * the raw SQL runs. Any answer other than 2xx, and any socket error or timeout, is an error.
 */
export async function runHttp(
  baseUrl: string,
  next: (i: number) => HttpRequest,
  opts: { connections: number; durationMs?: number; amount?: number; tokens?: string[] },
): Promise<LoadResult> {
  let i = 0
  let clientNo = 0
  const samples: number[] = []
  let bad = 0
  const tokens = opts.tokens ?? []
  const instance = autocannon({
    url: baseUrl,
    connections: opts.connections,
    ...(opts.amount !== undefined
      ? { amount: opts.amount }
      : { duration: Math.max(1, Math.round((opts.durationMs ?? 5000) / 1000)) }),
    timeout: 30,
    headers: { 'accept-encoding': 'gzip' },
    setupClient: (client) => {
      // One account per connection when several are given: each connection is a different user.
      const token = tokens[clientNo++ % Math.max(1, tokens.length)]
      if (token)
        client.setHeaders({
          authorization: `Bearer ${token}`,
          'accept-encoding': 'gzip',
          'content-type': 'application/json',
        })
    },
    requests: [
      {
        setupRequest: (req) => {
          const r = next(i++)
          req.method = r.method
          req.path = r.path
          if (r.body !== undefined) req.body = r.body
          return req
        },
      },
    ],
  })
  instance.on('response', (_client: unknown, status: number, _bytes: number, ms: number) => {
    if (status >= 200 && status < 300) samples.push(ms)
    else bad += 1
  })
  const result = await instance
  return loadResult(samples, bad + result.errors, result.duration, result.requests.sent)
}

type Envelope<T> = { meta?: { code?: string }; data?: T; message?: string }

export async function api<T>(
  baseUrl: string,
  method: string,
  path: string,
  body?: unknown,
  token?: string,
  headers: Record<string, string> = {},
): Promise<{ status: number; body: Envelope<T> }> {
  const res = await fetch(baseUrl + path, {
    method,
    headers: { 'content-type': 'application/json', ...(token ? { authorization: `Bearer ${token}` } : {}), ...headers },
    body: body === undefined ? undefined : JSON.stringify(body),
  })
  return { status: res.status, body: (await res.json()) as Envelope<T> }
}

/**
 * Registers the bench account when it does not exist yet and logs in; returns the access token. Each
 * account comes from its own address (the bench server trusts X-Forwarded-For), as each phone does:
 * twenty logins from one address, run after run, would meet the per-address login limit.
 */
export async function benchToken(baseUrl: string, n = 0): Promise<string> {
  const email = `bench-${n}@bench.invalid`
  const password = 'bench-password-1'
  const from = { 'x-forwarded-for': `10.77.${Math.floor(n / 250)}.${(n % 250) + 1}` }
  const reg = await api(baseUrl, 'POST', '/api/auth/register', { name: `Bench ${n}`, email, password }, undefined, from)
  if (reg.status !== 201 && reg.status !== 409) throw new Error(`register answered ${reg.status}: ${reg.body.message}`)
  const login = await api<{ access_token: string }>(
    baseUrl,
    'POST',
    '/api/auth/login',
    { email, password },
    undefined,
    from,
  )
  const token = login.body.data?.access_token
  if (!token) throw new Error(`login answered ${login.status}: ${login.body.message}`)
  return token
}
