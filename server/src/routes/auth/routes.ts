import { Hono } from 'hono'
import { z } from 'zod/mini'
import {
  forgotPasswordBody,
  loginBody,
  loginData,
  meData,
  registerBody,
  registerData,
  resetPasswordBody,
  usageData,
} from '#core/contract/auth.ts'
import { requireUser } from '../../accounts/require-user.ts'
import type { AppEnv, Deps } from '../../deps.ts'
import { json } from '../../http/validate.ts'
import { endpoint } from '../../openapi/describe.ts'
import { authHandlers } from './handlers.ts'

/** `/api/auth/*` of docs/api.md. */
export function authRoutes(deps: Deps) {
  const h = authHandlers(deps)
  const user = requireUser(deps)
  return new Hono<AppEnv>()
    .post(
      '/register',
      endpoint({
        summary: 'Đăng ký tài khoản',
        tag: 'auth',
        created: true,
        answer: { envelope: registerData },
        codes: ['BadRequest', 'Conflict', 'TooManyRequests'],
      }),
      json(registerBody),
      h.register,
    )
    .post(
      '/login',
      endpoint({
        summary: 'Đăng nhập, nhận access token',
        tag: 'auth',
        answer: { envelope: loginData },
        codes: ['BadRequest', 'Unauthorized', 'TooManyRequests'],
      }),
      json(loginBody),
      h.login,
    )
    .post(
      '/logout',
      endpoint({
        summary: 'Đăng xuất: token ngừng hoạt động',
        tag: 'auth',
        bearer: true,
        answer: { envelope: z.null() },
        codes: ['Unauthorized'],
      }),
      user,
      h.logout,
    )
    .post(
      '/forgotPassword',
      endpoint({
        summary: 'Gửi mã đặt lại mật khẩu qua e-mail',
        tag: 'auth',
        answer: { envelope: z.null() },
        codes: ['BadRequest', 'TooManyRequests'],
      }),
      json(forgotPasswordBody),
      h.forgotPassword,
    )
    .post(
      '/resetPassword',
      endpoint({
        summary: 'Đặt lại mật khẩu bằng mã',
        tag: 'auth',
        answer: { envelope: z.null() },
        codes: ['BadRequest', 'Unauthorized', 'TooManyRequests'],
      }),
      json(resetPasswordBody),
      h.resetPassword,
    )
    .get(
      '/usage',
      endpoint({
        summary: 'Số lượt tra cứu đã dùng hôm nay',
        tag: 'auth',
        bearer: true,
        answer: { envelope: usageData },
        codes: ['Unauthorized'],
      }),
      user,
      h.usage,
    )
    .get(
      '/me',
      endpoint({
        summary: 'Thông tin tài khoản',
        tag: 'auth',
        bearer: true,
        answer: { envelope: meData },
        codes: ['Unauthorized'],
      }),
      user,
      h.me,
    )
}
