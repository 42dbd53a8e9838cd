import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest'
import { createStore } from 'jotai'
import { z } from 'zod/mini'
import { planningData, usageData } from '#core/contract/index.ts'
import { errorTexts } from '../lib/errors.ts'
import { createApiClient } from '../lib/api/client.ts'
import { appApiHooks } from './api-hooks.ts'
import { pendingRequestsAtom } from '../lib/api/atoms.ts'
import { emptySession, sessionAtom, type Session } from '../features/auth/atoms.ts'
import { toastsAtom } from '../features/notifications/atoms.ts'
import { usageAtom } from '../features/usage/atoms.ts'

const base = 'https://api.example.test'
const NOW = Date.parse('2026-03-10T03:00:00Z')
const loggedIn: Session = {
  userName: 'Lan',
  token: 'tok-1',
  expiresAt: '2026-03-11T00:00:00+07:00',
  isLogin: true,
  isOpenLogin: false,
}

function json(body: unknown, status = 200) {
  return new Response(JSON.stringify(body), { status, headers: { 'Content-Type': 'application/json' } })
}
const ok = (data: unknown, extra: Record<string, unknown> = {}) =>
  json({ message: 'Thành công.', meta: { code: 'Ok', status: 'OK', ...extra }, data })
const fail = (code: string, status: number, more: Record<string, unknown> = {}) =>
  json({ message: 'Lỗi từ máy chủ.', meta: { code, status: 'NG' }, data: null, ...more }, status)

function setup(opts: { session?: Session; online?: boolean } = {}) {
  const store = createStore()
  store.set(sessionAtom, opts.session ?? loggedIn)
  const fetchMock = vi.fn<typeof fetch>()
  const client = createApiClient({
    store,
    hooks: appApiHooks(store),
    baseUrl: base,
    fetch: fetchMock,
    now: () => NOW,
    isOnline: () => opts.online ?? true,
  })
  const toasts = () => store.get(toastsAtom).map((t) => [t.color, t.title])
  const sent = (i = 0) => {
    const [url, init] = fetchMock.mock.calls[i]!
    return { url: String(url), init: init!, headers: new Headers(init!.headers) }
  }
  return { store, fetchMock, client, toasts, sent }
}

const anyData = z.object({ n: z.number() })

beforeEach(() => {
  localStorage.clear()
  document.cookie = 'XSRF-TOKEN=; expires=Thu, 01 Jan 1970 00:00:00 GMT; path=/'
})
afterEach(() => {
  vi.useRealTimers()
})

describe('API client', () => {
  it('sends every call to the configured base URL with the query string', async () => {
    const { client, fetchMock, sent } = setup()
    fetchMock.mockResolvedValue(ok({ n: 1 }))
    await client.request({ path: '/api/search', query: { q: 'nguyen hue', limit: 5, skip: undefined }, data: anyData })
    expect(sent().url).toBe(`${base}/api/search?q=nguyen+hue&limit=5`)
  })

  it('sets no timeout unless the call asks for one, so a slow answer still arrives', async () => {
    vi.useFakeTimers()
    const { client, fetchMock } = setup()
    fetchMock.mockImplementation(() => new Promise((resolve) => setTimeout(() => resolve(ok({ n: 2 })), 10 * 60_000)))
    const pending = client.request({ path: '/api/x', data: anyData })
    await vi.advanceTimersByTimeAsync(10 * 60_000)
    expect(await pending).toMatchObject({ ok: true, data: { n: 2 } })
  })

  it('aborts a call that set a timeout and says the server was too slow', async () => {
    vi.useFakeTimers()
    const { client, fetchMock, toasts } = setup()
    fetchMock.mockImplementation(
      (_url, init) =>
        new Promise((_resolve, reject) =>
          init!.signal!.addEventListener('abort', () => reject(new DOMException('aborted', 'AbortError'))),
        ),
    )
    const pending = client.request({ path: '/api/x', data: anyData, timeoutMs: 1000 })
    await vi.advanceTimersByTimeAsync(1000)
    expect(await pending).toMatchObject({ ok: false, code: 'Timeout' })
    expect(toasts()).toEqual([['red', errorTexts.TIMEOUT]])
  })

  it('sends the session token as a Bearer header', async () => {
    const { client, fetchMock, sent } = setup()
    fetchMock.mockResolvedValue(ok({ n: 1 }))
    await client.request({ path: '/api/x', data: anyData })
    expect(sent().headers.get('Authorization')).toBe('Bearer tok-1')
  })

  it('copies the XSRF-TOKEN cookie into the X-XSRF-TOKEN header when the cookie is present', async () => {
    const { client, fetchMock, sent } = setup()
    fetchMock.mockResolvedValue(ok({ n: 1 }))
    await client.request({ path: '/api/x', data: anyData })
    expect(sent(0).headers.has('X-XSRF-TOKEN')).toBe(false)
    document.cookie = 'XSRF-TOKEN=abc%3D%3D; path=/'
    await client.request({ path: '/api/x', data: anyData })
    expect(sent(1).headers.get('X-XSRF-TOKEN')).toBe('abc==')
  })

  it('parses a success into the contract type and rejects a body that does not match it with the UNKNOWN text', async () => {
    const { client, fetchMock, toasts } = setup()
    vi.spyOn(console, 'error').mockImplementation(() => {})
    fetchMock.mockResolvedValueOnce(ok({ count: 3, limit: 20, resets_at: '2026-03-10T17:00:00Z' }))
    expect(await client.request({ path: '/api/auth/usage', data: usageData })).toMatchObject({
      ok: true,
      data: { count: 3, limit: 20 },
    })
    fetchMock.mockResolvedValueOnce(ok({ parcel: 'not a parcel' }))
    expect(await client.request({ path: '/api/planning', data: planningData })).toMatchObject({
      ok: false,
      code: 'InternalServerError',
      message: errorTexts.UNKNOWN,
    })
    expect(toasts()).toEqual([['red', errorTexts.UNKNOWN]])
  })

  it('skips a call that needs a session when logged out, shows REQUIRED_LOGIN and opens the login dialog', async () => {
    const { client, fetchMock, store, toasts } = setup({ session: emptySession })
    void client.request({ path: '/api/planning', data: anyData })
    await Promise.resolve()
    expect(fetchMock).not.toHaveBeenCalled()
    expect(toasts()).toEqual([['yellow', errorTexts.REQUIRED_LOGIN]])
    expect(store.get(sessionAtom).isOpenLogin).toBe(true)
    expect(client.waitingForLogin()).toBe(1)
  })

  it('lets login, register, forgotPassword and resetPassword through without a session', async () => {
    const { client, fetchMock, toasts } = setup({ session: emptySession })
    fetchMock.mockImplementation(async () => ok(null))
    for (const path of [
      '/api/auth/login',
      '/api/auth/register',
      '/api/auth/forgotPassword',
      '/api/auth/resetPassword',
    ]) {
      await client.request({ method: 'POST', path, json: {}, data: z.null(), session: false })
    }
    expect(fetchMock).toHaveBeenCalledTimes(4)
    expect(toasts()).toEqual([])
  })

  it('retries the interrupted call once the user has logged in and hands its answer to the caller', async () => {
    const { client, fetchMock, store } = setup({ session: emptySession })
    fetchMock.mockResolvedValue(ok({ n: 7 }))
    const pending = client.request({ path: '/api/planning', data: anyData })
    store.set(sessionAtom, loggedIn)
    client.resumeAfterLogin()
    expect(await pending).toMatchObject({ ok: true, data: { n: 7 } })
    expect(fetchMock).toHaveBeenCalledTimes(1)
  })

  it('ends the interrupted call as RequiredLogin when the login dialog is closed', async () => {
    const { client } = setup({ session: emptySession })
    const pending = client.request({ path: '/api/planning', data: anyData })
    client.cancelAfterLogin()
    expect(await pending).toMatchObject({ ok: false, code: 'RequiredLogin' })
    expect(client.waitingForLogin()).toBe(0)
  })

  it('treats an expired token as TOKEN_EXPIRED: toast, session cleared, login dialog, no request', async () => {
    const { client, fetchMock, store, toasts } = setup({ session: { ...loggedIn, expiresAt: '2026-03-10T03:00:00Z' } })
    void client.request({ path: '/api/planning', data: anyData })
    await Promise.resolve()
    expect(fetchMock).not.toHaveBeenCalled()
    expect(toasts()).toEqual([['yellow', errorTexts.TOKEN_EXPIRED]])
    expect(store.get(sessionAtom)).toEqual({ ...emptySession, isOpenLogin: true })
  })

  it.each([
    ['an Unauthorized code', () => fail('Unauthorized', 401)],
    ['HTTP 401 without a body', () => new Response('', { status: 401 })],
  ])('answers %s like an expired token', async (_name, response) => {
    const { client, fetchMock, store, toasts } = setup()
    fetchMock.mockResolvedValue(response())
    void client.request({ path: '/api/planning', data: anyData })
    await vi.waitFor(() => expect(client.waitingForLogin()).toBe(1))
    expect(toasts()).toEqual([['yellow', errorTexts.TOKEN_EXPIRED]])
    expect(store.get(sessionAtom)).toEqual({ ...emptySession, isOpenLogin: true })
  })

  it('shows the UNKNOWN text for InternalServerError, never the server text', async () => {
    const { client, fetchMock, toasts } = setup()
    fetchMock.mockResolvedValue(fail('InternalServerError', 500))
    expect(await client.request({ path: '/api/x', data: anyData })).toMatchObject({
      code: 'InternalServerError',
      message: errorTexts.UNKNOWN,
    })
    expect(toasts()).toEqual([['red', errorTexts.UNKNOWN]])
  })

  it('shows every value of a field errors object as its own red toast and returns them per field', async () => {
    const { client, fetchMock, toasts } = setup()
    fetchMock.mockResolvedValue(
      fail('BadRequest', 400, { errors: { email: ['E-mail không hợp lệ.'], password: ['Quá ngắn.', 'Cần chữ số.'] } }),
    )
    const res = await client.request({ method: 'POST', path: '/api/x', json: {}, data: anyData })
    expect(res).toMatchObject({ ok: false, code: 'BadRequest', fieldErrors: { email: ['E-mail không hợp lệ.'] } })
    expect(toasts()).toEqual([
      ['red', 'E-mail không hợp lệ.'],
      ['red', 'Quá ngắn.'],
      ['red', 'Cần chữ số.'],
    ])
  })

  it('falls back from errors to the error string, then data.error, then message', async () => {
    const { client, fetchMock } = setup()
    const results = await Promise.all(
      [
        fail('Conflict', 409, { errors: 'E-mail đã được đăng ký.' }),
        fail('Forbidden', 403, { data: { error: 'Ảnh không thuộc về bạn.' } }),
        fail('Forbidden', 403),
      ].map(async (r) => {
        fetchMock.mockResolvedValueOnce(r)
        return client.request({ path: '/api/x', data: anyData })
      }),
    )
    expect(results.map((r) => (r.ok ? '' : r.message))).toEqual([
      'E-mail đã được đăng ký.',
      'Ảnh không thuộc về bạn.',
      'Lỗi từ máy chủ.',
    ])
  })

  it('treats a body without meta.code as InternalServerError, NG, 500', async () => {
    const { client, fetchMock } = setup()
    fetchMock.mockResolvedValueOnce(new Response('<html>Bad gateway</html>', { status: 502 }))
    fetchMock.mockResolvedValueOnce(json({ message: 'ok?' }, 200))
    for (let i = 0; i < 2; i++) {
      expect(await client.request({ path: '/api/x', data: anyData })).toMatchObject({
        ok: false,
        code: 'InternalServerError',
        status: 500,
        message: errorTexts.UNKNOWN,
      })
    }
  })

  it('says plainly that there is no network when a request fails while offline', async () => {
    const { client, fetchMock, toasts } = setup({ online: false })
    fetchMock.mockRejectedValue(new TypeError('Failed to fetch'))
    expect(await client.request({ path: '/api/x', data: anyData })).toMatchObject({
      ok: false,
      code: 'Offline',
      message: errorTexts.OFFLINE,
    })
    expect(errorTexts.OFFLINE).toMatch(/^Không có kết nối mạng/)
    expect(toasts()).toEqual([['yellow', errorTexts.OFFLINE]])
  })

  it('says the server could not be reached when a request fails while online', async () => {
    const { client, fetchMock } = setup({ online: true })
    fetchMock.mockRejectedValue(new TypeError('Failed to fetch'))
    expect(await client.request({ path: '/api/x', data: anyData })).toMatchObject({
      code: 'Network',
      message: errorTexts.NETWORK,
    })
  })

  it('raises no toast for an unreachable server when the caller answers from the device itself, online or offline', async () => {
    for (const online of [true, false]) {
      const { client, fetchMock, toasts } = setup({ online })
      fetchMock.mockRejectedValue(new TypeError('Failed to fetch'))
      expect(await client.request({ path: '/api/x', data: anyData, quietUnreachable: true })).toMatchObject({
        ok: false,
        code: online ? 'Network' : 'Offline',
      })
      expect(toasts()).toEqual([])
    }
  })

  it('updates the usage counter from meta.usage on any answer, success or failure', async () => {
    const { client, fetchMock, store } = setup()
    fetchMock.mockResolvedValueOnce(ok({ n: 1 }, { usage: { count: 4, limit: 20 } }))
    await client.request({ path: '/api/planning', data: anyData })
    expect(store.get(usageAtom)).toMatchObject({ count: 4, limit: 20, resetsAt: '2026-03-10T17:00:00.000Z' })
    fetchMock.mockResolvedValueOnce(
      json({ message: 'x', meta: { code: 'NotFound', status: 'NG', usage: { count: 5, limit: 20 } }, data: null }, 404),
    )
    await client.request({ path: '/api/planning', data: anyData })
    expect(store.get(usageAtom).count).toBe(5)
  })

  it('shows MAX_USAGE with the reset time when the daily limit is used up', async () => {
    const { client, fetchMock, toasts } = setup()
    fetchMock.mockResolvedValue(fail('MaxUsage', 429))
    const res = await client.request({ path: '/api/planning', data: anyData })
    expect(res.ok ? '' : res.message).toBe(`${errorTexts.MAX_USAGE} Lượt mới có từ 00:00 ngày 11/03/2026.`)
    expect(toasts()).toHaveLength(1)
  })

  it('shows a NotFound lookup as the yellow EMPTY_ESTATE or EMPTY_VALUATION text', async () => {
    const { client, fetchMock, toasts } = setup()
    fetchMock.mockImplementation(async () => fail('NotFound', 404))
    await client.request({ path: '/api/planning', data: anyData, emptyText: 'EMPTY_ESTATE' })
    await client.request({
      method: 'POST',
      path: '/api/valuation',
      json: {},
      data: anyData,
      emptyText: 'EMPTY_VALUATION',
    })
    expect(toasts()).toEqual([
      ['yellow', errorTexts.EMPTY_ESTATE],
      ['yellow', errorTexts.EMPTY_VALUATION],
    ])
  })

  it('raises no toast for the failure codes the caller shows itself, and still does for the others', async () => {
    const { client, fetchMock, toasts } = setup()
    const quiet = { path: '/api/planning', data: anyData, quietCodes: ['NotFound', 'LocationIncorrect'] } as const
    fetchMock.mockImplementationOnce(async () => fail('NotFound', 404))
    expect(await client.request(quiet)).toMatchObject({ ok: false, code: 'NotFound' })
    fetchMock.mockImplementationOnce(async () => fail('LocationIncorrect', 400))
    expect(await client.request(quiet)).toMatchObject({ ok: false, code: 'LocationIncorrect' })
    expect(toasts()).toEqual([])
    fetchMock.mockImplementationOnce(async () => fail('InternalServerError', 500))
    await client.request(quiet)
    expect(toasts()).toEqual([['red', errorTexts.UNKNOWN]])
  })

  it('applies the code-based toast rule when asked: green first message on success, red each message on failure', async () => {
    const { client, fetchMock, toasts } = setup({ session: emptySession })
    fetchMock.mockResolvedValueOnce(
      json({ message: 'Đăng ký thành công.', meta: { code: 'Ok', status: 'OK' }, data: null }, 201),
    )
    await client.request({
      method: 'POST',
      path: '/api/auth/register',
      json: {},
      data: z.null(),
      session: false,
      toast: 'code',
    })
    fetchMock.mockResolvedValueOnce(
      fail('BadRequest', 400, { errors: { name: ['Thiếu tên.'], email: ['Sai e-mail.'] } }),
    )
    await client.request({
      method: 'POST',
      path: '/api/auth/register',
      json: {},
      data: z.null(),
      session: false,
      toast: 'code',
    })
    expect(toasts()).toEqual([
      ['green', 'Đăng ký thành công.'],
      ['red', 'Thiếu tên.'],
      ['red', 'Sai e-mail.'],
    ])
  })

  it('shows the loading bar for requests with a body unless they opt out, and never for plain GETs', async () => {
    const { client, fetchMock, store } = setup()
    const seen: number[] = []
    fetchMock.mockImplementation(async () => {
      seen.push(store.get(pendingRequestsAtom))
      return ok({ n: 1 })
    })
    await client.request({ method: 'POST', path: '/api/valuation', json: { a: 1 }, data: anyData })
    await client.request({ method: 'POST', path: '/api/valuation', json: { a: 1 }, data: anyData, overlay: false })
    await client.request({ path: '/api/planning', data: anyData })
    await client.request({ path: '/api/planning', data: anyData, overlay: true })
    expect(seen).toEqual([1, 0, 0, 1])
    expect(store.get(pendingRequestsAtom)).toBe(0)
  })
})
