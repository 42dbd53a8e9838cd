import { usageData } from '#core/contract/auth.ts'
import type { ApiClient } from '../../lib/api/client.ts'
import type { Store } from '../../lib/store.ts'
import { usageAtom } from './atoms.ts'

/**
 * Reads today's count from the server at start, only for someone who logged in: a signed-out visitor is
 * never asked to log in, while an expired or revoked session is told so (TOKEN_EXPIRED, login dialog).
 */
export async function refreshUsage(api: ApiClient, store: Store, now: () => number = Date.now): Promise<void> {
  if (!api.hasSession()) return
  const res = await api.request({ path: '/api/auth/usage', data: usageData, toast: 'none' })
  if (res.ok)
    store.set(usageAtom, {
      count: res.data.count,
      limit: res.data.limit,
      resetsAt: res.data.resets_at,
      updatedAt: now(),
    })
}
