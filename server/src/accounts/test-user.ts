import type { Deps } from '../deps.ts'
import { uniqueEmail, type TestApp } from '../testing/test-app.ts'
import { registerUser } from './accounts.ts'
import { issueToken } from './tokens.ts'

/** The Deps a TestApp runs on, for calling domain functions (countedLookup, …) directly in tests. */
export function depsOf(t: TestApp): Deps {
  return {
    config: t.config,
    db: t.db,
    logger: t.logger,
    mailer: { send: async (m) => void t.mails.push(m) },
    now: () => t.clock.now,
  }
}

export type TestUser = { id: string; name: string; email: string; password: string; token: string }

/**
 * A registered account with a live token issued at `t.clock.now`. Goes around /api/auth/login on
 * purpose: tests built with app.request share one client IP, and the login rate limit would
 * otherwise make unrelated test files fail each other.
 */
export async function createTestUser(t: TestApp, opts: { name?: string; password?: string } = {}): Promise<TestUser> {
  const deps = depsOf(t)
  const name = opts.name ?? 'Người Thử'
  const password = opts.password ?? 'mat-khau-thu-1'
  const user = await registerUser(deps, { name, email: uniqueEmail(), password })
  const { token } = await issueToken(deps, user.id)
  return { id: user.id, name, email: user.email, password, token }
}
