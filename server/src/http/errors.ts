import type { MetaCode, Usage } from '../../../src/lib/contract/envelope.ts'

/** A failure a handler answers on purpose; anything else thrown becomes InternalServerError. */
export class ApiError extends Error {
  override name = 'ApiError'
  readonly code: Exclude<MetaCode, 'Ok'>
  readonly errors: Record<string, string[]> | string | undefined
  readonly headers: Record<string, string> | undefined
  /** meta.usage on failures of counted lookups (MaxUsage). */
  readonly usage: Usage | undefined

  constructor(
    code: Exclude<MetaCode, 'Ok'>,
    message?: string,
    opts: { errors?: Record<string, string[]> | string; headers?: Record<string, string>; usage?: Usage } = {},
  ) {
    super(message ?? defaultMessages[code])
    this.code = code
    this.errors = opts.errors
    this.headers = opts.headers
    this.usage = opts.usage
  }
}

/** Default Vietnamese messages per code, used when a handler gives none. */
export const defaultMessages: Record<Exclude<MetaCode, 'Ok'>, string> = {
  BadRequest: 'Dữ liệu gửi lên không hợp lệ.',
  LocationIncorrect: 'Vị trí không hợp lệ hoặc nằm ngoài vùng có dữ liệu.',
  Unauthorized: 'Bạn cần đăng nhập để tiếp tục.',
  Forbidden: 'Bạn không có quyền thực hiện thao tác này.',
  NotFound: 'Không tìm thấy.',
  Conflict: 'Dữ liệu bị trùng.',
  MaxFile: 'Tối đa 4 hình ảnh.',
  UnsupportedMedia: 'Tệp không phải ảnh JPEG, PNG hoặc WebP hợp lệ.',
  MaxUsage: 'Bạn đã dùng hết lượt tra cứu hôm nay.',
  TooManyRequests: 'Bạn thao tác quá nhanh, vui lòng thử lại sau.',
  InternalServerError: 'Đã có lỗi xảy ra, vui lòng thử lại.',
  ServiceUnavailable: 'Hệ thống đang tạm gián đoạn, vui lòng thử lại sau ít phút.',
}
