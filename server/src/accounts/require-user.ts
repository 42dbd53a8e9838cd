import type { Context, MiddlewareHandler } from 'hono'
import type { AppEnv, Deps } from '../deps.ts'
import { NotSignedInError } from '../domain-errors.ts'
import { userIdForToken } from './tokens.ts'

/** The bearer token of a request, or null when the header is missing or not `Bearer <token>`. */
export function bearerToken(c: Context): string | null {
  const match = /^Bearer[ ]+(\S+)\s*$/i.exec(c.req.header('authorization') ?? '')
  return match?.[1] ?? null
}

/**
 * Lets the request through only with a live token (not expired, not revoked) and puts the account
 * id in `c.get('userId')`; otherwise answers 401 Unauthorized.
 */
export function requireUser(deps: Deps): MiddlewareHandler<AppEnv> {
  return async (c, next) => {
    const token = bearerToken(c)
    const userId = token ? await userIdForToken(deps, token) : null
    if (!userId)
      throw new NotSignedInError(
        token ? 'Phiên đăng nhập đã hết hạn hoặc không hợp lệ. Vui lòng đăng nhập lại.' : undefined,
      )
    c.set('userId', userId)
    await next()
  }
}

/** The account id set by requireUser; for handlers mounted behind it. */
export function currentUserId(c: Context<AppEnv>): string {
  const id = c.get('userId')
  if (!id) throw new NotSignedInError()
  return id
}
