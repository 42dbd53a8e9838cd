import { usageData } from '../../lib/contract/auth.ts'
import type { ApiClient } from '../../lib/api/client.ts'
import type { Store } from '../../lib/store.ts'
import { isSessionValid, sessionAtom } from '../auth/atoms.ts'
import { usageAtom } from './atoms.ts'

/** Reads today's count from the server; only when signed in, so app start never asks anyone to log in. */
export async function refreshUsage(api: ApiClient, store: Store, now: () => number = Date.now): Promise<void> {
  if (!isSessionValid(store.get(sessionAtom), now())) return
  const res = await api.request({ path: '/api/auth/usage', data: usageData, toast: 'none' })
  if (res.ok) store.set(usageAtom, { count: res.data.count, limit: res.data.limit, resetsAt: res.data.resets_at, updatedAt: now() })
}
