import { z } from 'zod/mini'
import {
  loginData,
  meData,
  registerData,
  usageDaysData,
  type ChangePasswordBody,
  type LoginBody,
  type RegisterBody,
} from '#core/contract/auth.ts'
import type { ApiClient, ApiResult } from '../../lib/api/client.ts'
import type { Store } from '../../lib/store.ts'
import { emptyUsage, refreshUsage, usageAtom } from '../usage/index.ts'
import { emptySession, sessionAtom } from './atoms.ts'

/** Account calls; none of them needs a session except logout, and each shows the code-based toast. */
/**
 * `clearDevice` forgets what the device kept of the account at logout (the app gives it: that data
 * belongs to other features).
 */
export function createAuthApi(
  api: ApiClient,
  store: Store,
  clearDevice: (store: Store) => Promise<void> = async () => {},
) {
  /** Logs in and fills the session; `toast: 'none'` when another call's toast already says how it went. */
  async function signIn(body: LoginBody, toast: 'code' | 'none'): Promise<ApiResult<z.infer<typeof loginData>>> {
    const res = await api.request({
      method: 'POST',
      path: '/api/auth/login',
      json: body,
      data: loginData,
      session: false,
      toast,
    })
    if (res.ok) {
      store.set(sessionAtom, {
        userName: res.data.name,
        token: res.data.access_token,
        expiresAt: res.data.expires_at,
        isLogin: true,
        isOpenLogin: false,
      })
      api.resumeAfterLogin()
      void refreshUsage(api, store)
    }
    return res
  }

  return {
    login: (body: LoginBody) => signIn(body, 'code'),
    /**
     * Registers, then logs the new account in with the same password (the contract's register answers
     * no token), so nobody types the password twice; the register's toast says it all. `loggedIn` is
     * false when that login did not go through (the dialog then asks for it).
     */
    async register(body: RegisterBody): Promise<ApiResult<z.infer<typeof registerData>> & { loggedIn?: boolean }> {
      const res = await api.request({
        method: 'POST',
        path: '/api/auth/register',
        json: body,
        data: registerData,
        session: false,
        toast: 'code',
      })
      if (!res.ok) return res
      const login = await signIn({ email: body.email, password: body.password }, 'none')
      return { ...res, loggedIn: login.ok }
    },
    forgotPassword: (body: { email: string }) =>
      api.request({
        method: 'POST',
        path: '/api/auth/forgotPassword',
        json: body,
        data: z.null(),
        session: false,
        toast: 'code',
      }),
    resetPassword: (body: { code: string; new_password: string }) =>
      api.request({
        method: 'POST',
        path: '/api/auth/resetPassword',
        json: body,
        data: z.null(),
        session: false,
        toast: 'code',
      }),
    /** The account's name and e-mail, for the account page (no toast: the page says when it cannot). */
    me: () => api.request({ path: '/api/auth/me', data: meData, toast: 'none', overlay: false }),
    /** Counted lookups per day over the last 30 days. */
    usageDays: () => api.request({ path: '/api/auth/usage/days', data: usageDaysData, toast: 'none', overlay: false }),
    /** Changes the password; the account's other sessions end, this one stays. */
    changePassword: (body: ChangePasswordBody) =>
      api.request({ method: 'POST', path: '/api/auth/changePassword', json: body, data: z.null(), toast: 'code' }),
    /**
     * Ends the session here even when the server cannot be reached (the token also expires by itself).
     * What this device kept of the account (history, valuation draft, photos, walk) stays unless the
     * person chose to clear it (a shared phone): the logout dialog asks, and says how many photos wait
     * unsent (unsentPhotoCount) since they go with the rest.
     */
    async logout({ clearDevice: clear = false }: { clearDevice?: boolean } = {}): Promise<void> {
      await api.request({
        method: 'POST',
        path: '/api/auth/logout',
        data: z.null(),
        session: false,
        toast: 'none',
        overlay: false,
      })
      store.set(sessionAtom, emptySession)
      store.set(usageAtom, emptyUsage)
      if (clear) await clearDevice(store)
    },
  }
}
