import { z } from 'zod'
import { loginData, registerData, type LoginBody, type RegisterBody } from '#core/contract/auth.ts'
import type { ApiClient, ApiResult } from '../../lib/api/client.ts'
import type { Store } from '../../lib/store.ts'
import { emptyUsage, refreshUsage, usageAtom } from '../usage/index.ts'
import { emptySession, sessionAtom } from './atoms.ts'

/** Account calls; none of them needs a session except logout, and each shows the code-based toast. */
/**
 * `clearDevice` forgets what the device kept of the account at logout (the app gives it: that data
 * belongs to other features).
 */
export function createAuthApi(api: ApiClient, store: Store, clearDevice: (store: Store) => Promise<void> = async () => {}) {
  return {
    async login(body: LoginBody): Promise<ApiResult<z.infer<typeof loginData>>> {
      const res = await api.request({ method: 'POST', path: '/api/auth/login', json: body, data: loginData, session: false, toast: 'code' })
      if (res.ok) {
        store.set(sessionAtom, { userName: res.data.name, token: res.data.access_token, expiresAt: res.data.expires_at, isLogin: true, isOpenLogin: false })
        api.resumeAfterLogin()
        void refreshUsage(api, store)
      }
      return res
    },
    register: (body: RegisterBody) => api.request({ method: 'POST', path: '/api/auth/register', json: body, data: registerData, session: false, toast: 'code' }),
    forgotPassword: (body: { email: string }) => api.request({ method: 'POST', path: '/api/auth/forgotPassword', json: body, data: z.null(), session: false, toast: 'code' }),
    resetPassword: (body: { code: string; new_password: string }) =>
      api.request({ method: 'POST', path: '/api/auth/resetPassword', json: body, data: z.null(), session: false, toast: 'code' }),
    /**
     * Ends the session here even when the server cannot be reached (the token also expires by itself),
     * then clears what this device kept of the account. Ask first when photos wait unsent
     * (unsentPhotoCount): they are deleted with the rest.
     */
    async logout(): Promise<void> {
      await api.request({ method: 'POST', path: '/api/auth/logout', data: z.null(), session: false, toast: 'none', overlay: false })
      store.set(sessionAtom, emptySession)
      store.set(usageAtom, emptyUsage)
      await clearDevice(store)
    },
  }
}
