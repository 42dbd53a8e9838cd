import type { ApiHooks } from '../lib/api/client.ts'
import type { Store } from '../lib/store.ts'
import { emptySession, isSessionValid, sessionAtom } from '../features/auth/index.ts'
import { codeToast, pushToast } from '../features/notifications/index.ts'
import { usageAtom } from '../features/usage/index.ts'

/** The API client's hooks into the app: the session and the login dialog, the daily counter, the toasts. */
export function appApiHooks(store: Store): ApiHooks {
  return {
    session(now) {
      const s = store.get(sessionAtom)
      if (!s.isLogin || s.token === '') return { state: 'none', token: '' }
      return { state: isSessionValid(s, now) ? 'valid' : 'expired', token: s.token }
    },
    askLogin(reason) {
      const s = store.get(sessionAtom)
      store.set(
        sessionAtom,
        reason === 'TOKEN_EXPIRED' ? { ...emptySession, isOpenLogin: true } : { ...s, isOpenLogin: true },
      )
    },
    usageResetsAt: () => store.get(usageAtom).resetsAt,
    noteUsage: (usage) => store.set(usageAtom, usage),
    notify: (kind, text) => void pushToast(store, kind, text),
    notifyByCode: (status, texts) => codeToast(store, status, texts),
  }
}
