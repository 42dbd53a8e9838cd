import { env } from '../env.ts'
import { store } from '../store.ts'
import { createApiClient, type ApiHooks } from './client.ts'

let installed: ApiHooks | null = null

/** Called once at start by the app (src/main.tsx), before any request: how the client reaches session, usage and toasts. */
export function installApiHooks(hooks: ApiHooks): void {
  installed = hooks
}

function hooks(): ApiHooks {
  if (!installed) throw new Error('API hooks are not installed: the app installs them at start')
  return installed
}

/** The app's one API client; every call to the server goes through it. */
export const api = createApiClient({
  store,
  baseUrl: env.apiBaseUrl,
  hooks: {
    session: (now) => hooks().session(now),
    askLogin: (reason) => hooks().askLogin(reason),
    usageResetsAt: () => hooks().usageResetsAt(),
    noteUsage: (usage) => hooks().noteUsage(usage),
    notify: (kind, text) => hooks().notify(kind, text),
    notifyByCode: (status, texts) => hooks().notifyByCode(status, texts),
  },
})
export type { ApiFailure, ApiHooks, ApiResult, ApiSuccess, RequestSpec } from './client.ts'
