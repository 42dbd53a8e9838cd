import { z } from 'zod/mini'

/** E-mail is case-insensitive and trimmed (docs/api.md). */
export const emailSchema = z.pipe(
  z.string({ error: 'Vui lòng nhập e-mail.' }).check(z.trim(), z.toLowerCase(), z.maxLength(254, 'E-mail quá dài.')),
  // Only plain ASCII addresses: accented or IDN forms are refused with this message rather than half-supported.
  z.email({ error: 'E-mail không hợp lệ. Hãy dùng địa chỉ dạng ten@vidu.vn, chữ không dấu.' }),
)

export const passwordSchema = z
  .string({ error: 'Vui lòng nhập mật khẩu.' })
  .check(z.minLength(8, 'Mật khẩu cần ít nhất 8 ký tự.'), z.maxLength(128, 'Mật khẩu tối đa 128 ký tự.'))

export const nameSchema = z
  .string({ error: 'Vui lòng nhập họ tên.' })
  .check(z.trim(), z.minLength(1, 'Vui lòng nhập họ tên.'), z.maxLength(80, 'Họ tên tối đa 80 ký tự.'))

export const registerBody = z.object({ name: nameSchema, email: emailSchema, password: passwordSchema })
export const loginBody = z.object({
  email: emailSchema,
  password: z
    .string({ error: 'Vui lòng nhập mật khẩu.' })
    .check(z.minLength(1, 'Vui lòng nhập mật khẩu.'), z.maxLength(128, 'Mật khẩu tối đa 128 ký tự.')),
})
export const forgotPasswordBody = z.object({ email: emailSchema })
export const resetPasswordBody = z.object({
  code: z
    .string({ error: 'Vui lòng nhập mã.' })
    .check(z.trim(), z.minLength(1, 'Vui lòng nhập mã.'), z.maxLength(64, 'Mã không hợp lệ.')),
  new_password: passwordSchema,
})

export const registerData = z.object({ name: z.string(), email: z.string() })
export const loginData = z.object({ access_token: z.string(), expires_at: z.string(), name: z.string() })
export const usageData = z.object({ count: z.int(), limit: z.int(), resets_at: z.string() })
export const meData = z.object({ name: z.string(), email: z.string(), created_at: z.string() })

export type RegisterBody = z.infer<typeof registerBody>
export type LoginBody = z.infer<typeof loginBody>
export type LoginData = z.infer<typeof loginData>
export type UsageData = z.infer<typeof usageData>
export type MeData = z.infer<typeof meData>
