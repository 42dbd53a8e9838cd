import type { Context } from 'hono'
import type { z } from 'zod/mini'
import type { forgotPasswordBody, loginBody, registerBody, resetPasswordBody } from '#core/contract/auth.ts'
import { getProfile, logIn, registerUser } from '../../accounts/accounts.ts'
import { addressKey, clientIp } from '../../accounts/client-ip.ts'
import { requestPasswordReset, resetPassword } from '../../accounts/password-reset.ts'
import { hitRateLimit, rateRules, registerRule } from '../../accounts/rate-limit.ts'
import { bearerToken, currentUserId } from '../../accounts/require-user.ts'
import { revokeToken } from '../../accounts/tokens.ts'
import type { AppEnv, Deps } from '../../deps.ts'
import { ok } from '../../http/envelope.ts'
import type { Validated } from '../../http/validate.ts'
import { getUsage } from '../../usage/daily-limit.ts'
import { toVietnamIso } from '#core/time/vietnam-time.ts'

type Ctx = Context<AppEnv>
/** A handler's context after `json(schema)` checked the body. */
type WithBody<S extends z.core.$ZodType> = Context<AppEnv, string, Validated<'json', S>>

export function authHandlers(deps: Deps) {
  return {
    async register(c: WithBody<typeof registerBody>) {
      const body = c.req.valid('json')
      await hitRateLimit(deps, registerRule(deps.config.registrationsPerHour), addressKey(clientIp(c, deps.config)))
      const user = await registerUser(deps, body)
      return ok(c, { name: user.name, email: user.email }, { status: 201, message: 'Đăng ký thành công.' })
    },

    async login(c: WithBody<typeof loginBody>) {
      const body = c.req.valid('json')
      // The IP is counted first, so one address over its limit stops spending other people's per-e-mail attempts.
      await hitRateLimit(deps, rateRules.loginIp, addressKey(clientIp(c, deps.config)))
      await hitRateLimit(deps, rateRules.loginEmail, body.email)
      const session = await logIn(deps, body.email, body.password)
      return ok(
        c,
        { access_token: session.token, expires_at: toVietnamIso(session.expiresAt), name: session.name },
        { message: 'Đăng nhập thành công.' },
      )
    },

    async logout(c: Ctx) {
      // requireUser has already accepted this token.
      await revokeToken(deps, bearerToken(c)!)
      return ok(c, null, { message: 'Đã đăng xuất.' })
    },

    async me(c: Ctx) {
      const user = await getProfile(deps, currentUserId(c))
      return ok(c, { name: user.name, email: user.email, created_at: toVietnamIso(user.createdAt) })
    },

    async forgotPassword(c: WithBody<typeof forgotPasswordBody>) {
      const body = c.req.valid('json')
      await hitRateLimit(deps, rateRules.forgotIp, addressKey(clientIp(c, deps.config)))
      await hitRateLimit(deps, rateRules.forgotEmail, body.email)
      await requestPasswordReset(deps, body.email)
      return ok(c, null, {
        message: 'Nếu e-mail này đã đăng ký, chúng tôi đã gửi mã đặt lại mật khẩu. Vui lòng kiểm tra hộp thư.',
      })
    },

    async resetPassword(c: WithBody<typeof resetPasswordBody>) {
      const body = c.req.valid('json')
      await resetPassword(deps, body.code, body.new_password)
      return ok(c, null, { message: 'Đã đặt lại mật khẩu. Vui lòng đăng nhập bằng mật khẩu mới.' })
    },

    async usage(c: Ctx) {
      return ok(c, await getUsage(deps, currentUserId(c)))
    },
  }
}
