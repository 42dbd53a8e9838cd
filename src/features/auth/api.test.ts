import { beforeEach, describe, expect, it, vi } from 'vitest'
import { createStore } from 'jotai'
import { z } from 'zod/mini'
import { createApiClient } from '../../lib/api/client.ts'
import { appApiHooks } from '../../app/api-hooks.ts'
import { toastsAtom } from '../notifications/atoms.ts'
import { emptyUsage, usageAtom } from '../usage/atoms.ts'
import { createAuthApi } from './api.ts'
import { emptySession, sessionAtom } from './atoms.ts'

function setup() {
  const store = createStore()
  const fetchMock = vi.fn<typeof fetch>()
  const api = createApiClient({ store, hooks: appApiHooks(store), baseUrl: '', fetch: fetchMock })
  return {
    store,
    fetchMock,
    api,
    auth: createAuthApi(api, store),
    toasts: () => store.get(toastsAtom).map((t) => [t.color, t.title]),
  }
}
const body = (data: unknown, message = 'Thành công.') =>
  new Response(JSON.stringify({ message, meta: { code: 'Ok', status: 'OK' }, data }))

beforeEach(() => localStorage.clear())

describe('account calls', () => {
  it('fills the session token, expiry and name from the login answer and closes the dialog', async () => {
    const { store, fetchMock, auth, toasts } = setup()
    store.set(sessionAtom, { ...emptySession, isOpenLogin: true })
    fetchMock.mockResolvedValueOnce(
      body({ access_token: 'abc', expires_at: '2099-01-01T00:00:00+07:00', name: 'Lan' }, 'Đăng nhập thành công.'),
    )
    fetchMock.mockResolvedValueOnce(body({ count: 0, limit: 20, resets_at: '2099-01-01T00:00:00+07:00' }))
    await auth.login({ email: 'lan@example.com', password: 'mat-khau-1' })
    expect(store.get(sessionAtom)).toEqual({
      userName: 'Lan',
      token: 'abc',
      expiresAt: '2099-01-01T00:00:00+07:00',
      isLogin: true,
      isOpenLogin: false,
    })
    expect(toasts()).toEqual([['green', 'Đăng nhập thành công.']])
  })

  it('runs the call the login interrupted once the login succeeds, and reads the day\u2019s count', async () => {
    const { store, fetchMock, auth, api } = setup()
    const interrupted = api.request({ path: '/api/planning', data: z.object({ n: z.number() }) })
    fetchMock.mockImplementation(async (url) => {
      if (String(url) === '/api/auth/login')
        return body({ access_token: 'abc', expires_at: '2099-01-01T00:00:00+07:00', name: 'Lan' })
      if (String(url) === '/api/auth/usage')
        return body({ count: 2, limit: 20, resets_at: '2099-01-01T00:00:00+07:00' })
      return body({ n: 1 })
    })
    await auth.login({ email: 'lan@example.com', password: 'mat-khau-1' })
    expect(await interrupted).toMatchObject({ ok: true, data: { n: 1 } })
    const planningCall = fetchMock.mock.calls.find(([url]) => String(url) === '/api/planning')!
    expect(new Headers(planningCall[1]!.headers).get('Authorization')).toBe('Bearer abc')
    expect(store.get(sessionAtom).isLogin).toBe(true)
    await vi.waitFor(() => expect(store.get(usageAtom)).toMatchObject({ count: 2, limit: 20 }))
  })

  it('shows the code-based toast for register, forgotPassword and resetPassword', async () => {
    const { fetchMock, auth, toasts } = setup()
    fetchMock.mockImplementation(async (url) => {
      const path = String(url)
      if (path === '/api/auth/register') return body({ name: 'Lan', email: 'lan@example.com' }, 'Đăng ký thành công.')
      if (path === '/api/auth/login')
        return body(
          { access_token: 'abc', expires_at: '2099-01-01T00:00:00+07:00', name: 'Lan' },
          'Đăng nhập thành công.',
        )
      if (path === '/api/auth/usage') return body({ count: 0, limit: 20, resets_at: '2099-01-01T00:00:00+07:00' })
      if (path === '/api/auth/forgotPassword') return body(null, 'Đã gửi mã.')
      return new Response(
        JSON.stringify({
          message: 'Mã không đúng.',
          meta: { code: 'BadRequest', status: 'NG' },
          errors: { code: ['Mã không đúng.'] },
          data: null,
        }),
        {
          status: 400,
        },
      )
    })
    await auth.register({ name: 'Lan', email: 'lan@example.com', password: 'mat-khau-1' })
    await auth.forgotPassword({ email: 'lan@example.com' })
    await auth.resetPassword({ code: '123', new_password: 'mat-khau-2' })
    expect(toasts()).toEqual([
      ['green', 'Đăng ký thành công.'],
      ['green', 'Đã gửi mã.'],
      ['red', 'Mã không đúng.'],
    ])
  })

  it('logs the new account in after registering, with the same password and no second toast', async () => {
    const { store, fetchMock, auth, toasts } = setup()
    const sent: { path: string; body: unknown }[] = []
    fetchMock.mockImplementation(async (url, init) => {
      const path = String(url)
      sent.push({ path, body: init?.body ? JSON.parse(String(init.body)) : null })
      if (path === '/api/auth/register') return body({ name: 'Lan', email: 'lan@example.com' }, 'Đăng ký thành công.')
      if (path === '/api/auth/login')
        return body(
          { access_token: 'abc', expires_at: '2099-01-01T00:00:00+07:00', name: 'Lan' },
          'Đăng nhập thành công.',
        )
      return body({ count: 0, limit: 20, resets_at: '2099-01-01T00:00:00+07:00' })
    })
    const res = await auth.register({ name: 'Lan', email: 'lan@example.com', password: 'mat-khau-1' })
    expect(res).toMatchObject({ ok: true, loggedIn: true })
    expect(sent.find((s) => s.path === '/api/auth/login')?.body).toEqual({
      email: 'lan@example.com',
      password: 'mat-khau-1',
    })
    expect(store.get(sessionAtom)).toMatchObject({ userName: 'Lan', token: 'abc', isLogin: true, isOpenLogin: false })
    expect(toasts()).toEqual([['green', 'Đăng ký thành công.']])
  })

  it('clears the session and the counter on logout even when the server cannot be reached', async () => {
    const { store, fetchMock, auth } = setup()
    store.set(sessionAtom, {
      userName: 'Lan',
      token: 'abc',
      expiresAt: '2099-01-01T00:00:00+07:00',
      isLogin: true,
      isOpenLogin: false,
    })
    store.set(usageAtom, { count: 3, limit: 20, resetsAt: null, updatedAt: 1 })
    fetchMock.mockRejectedValue(new TypeError('Failed to fetch'))
    await auth.logout()
    expect(store.get(sessionAtom)).toEqual(emptySession)
    expect(store.get(usageAtom)).toEqual(emptyUsage)
  })
})
