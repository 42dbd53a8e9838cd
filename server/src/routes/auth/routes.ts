import { Hono } from 'hono'
import { requireUser } from '../../accounts/require-user.ts'
import type { AppEnv, Deps } from '../../deps.ts'
import { authHandlers } from './handlers.ts'

/** `/api/auth/*` of CONTRACT.md. */
export function authRoutes(deps: Deps) {
  const h = authHandlers(deps)
  const user = requireUser(deps)
  return new Hono<AppEnv>()
    .post('/register', h.register)
    .post('/login', h.login)
    .post('/logout', user, h.logout)
    .post('/forgotPassword', h.forgotPassword)
    .post('/resetPassword', h.resetPassword)
    .get('/usage', user, h.usage)
    .get('/usage/days', user, h.usageDays)
    .post('/changePassword', user, h.changePassword)
    .get('/me', user, h.me)
}
