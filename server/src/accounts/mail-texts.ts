import type { Mail } from '../mail/mailer.ts'
import { formatVietnamTime } from '#core/time/vietnam-time.ts'

export function passwordResetMail(input: {
  to: string
  name: string
  code: string
  expiresAt: Date
  publicUrl: string
}): Mail {
  return {
    to: input.to,
    subject: 'Mã đặt lại mật khẩu Quy hoạch VN',
    text: [
      `Xin chào ${input.name},`,
      '',
      `Chúng tôi nhận được yêu cầu đặt lại mật khẩu cho tài khoản ${input.to}.`,
      '',
      `Mã đặt lại mật khẩu của bạn: ${input.code}`,
      '',
      `Mở ${input.publicUrl}, chọn "Quên mật khẩu", rồi nhập mã này cùng mật khẩu mới.`,
      `Mã chỉ dùng được một lần và hết hạn sau 30 phút (lúc ${formatVietnamTime(input.expiresAt)}, giờ Việt Nam).`,
      '',
      'Nếu bạn không yêu cầu đặt lại mật khẩu, hãy bỏ qua thư này; mật khẩu của bạn vẫn giữ nguyên.',
      '',
      'Quy hoạch VN',
    ].join('\n'),
  }
}
