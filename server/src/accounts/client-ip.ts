import type { Context } from 'hono'
import { getConnInfo } from '@hono/node-server/conninfo'

/**
 * The address rate limits are keyed on. X-Forwarded-For is only believed behind a trusted proxy
 * (TRUST_PROXY), since any client can send it; requests built in tests have no socket at all.
 */
export function clientIp(c: Context, trustProxy: boolean): string {
  if (trustProxy) {
    const first = c.req.header('x-forwarded-for')?.split(',')[0]?.trim()
    if (first) return first.slice(0, 64)
  }
  try {
    return getConnInfo(c).remote.address ?? 'unknown'
  } catch {
    return 'unknown'
  }
}
