import type { MetaCode } from './contract/envelope.ts'
import { MAX_PHOTOS } from './limits.ts'

/**
 * The one catalogue of Vietnamese texts for failures: the server's default message per envelope code, and
 * the texts the app shows for failures it explains itself, whatever the server said.
 */
export const codeMessages: Record<Exclude<MetaCode, 'Ok'>, string> = {
  BadRequest: 'Dữ liệu gửi lên không hợp lệ.',
  LocationIncorrect: 'Vị trí không hợp lệ hoặc nằm ngoài vùng có dữ liệu.',
  Unauthorized: 'Bạn cần đăng nhập để tiếp tục.',
  Forbidden: 'Bạn không có quyền thực hiện thao tác này.',
  NotFound: 'Không tìm thấy.',
  Conflict: 'Dữ liệu bị trùng.',
  MaxFile: `Tối đa ${MAX_PHOTOS} hình ảnh.`,
  UnsupportedMedia: 'Tệp không phải ảnh JPEG, PNG hoặc WebP hợp lệ.',
  MaxUsage: 'Bạn đã dùng hết lượt tra cứu hôm nay.',
  TooManyRequests: 'Bạn thao tác quá nhanh, vui lòng thử lại sau.',
  InternalServerError: 'Đã có lỗi xảy ra, vui lòng thử lại.',
  ServiceUnavailable: 'Hệ thống đang tạm gián đoạn, vui lòng thử lại sau ít phút.',
}

export const errorTexts = {
  UNKNOWN: 'Đã có lỗi xảy ra. Vui lòng thử lại sau.',
  EMPTY: 'Không có dữ liệu.',
  EMPTY_ESTATE: 'Không tìm thấy thông tin quy hoạch tại vị trí này.',
  EMPTY_VALUATION: 'Chưa có dữ liệu để định giá thửa đất này.',
  LOCATION_INCORRECT: codeMessages.LocationIncorrect,
  MAX_USAGE: codeMessages.MaxUsage,
  TOKEN_EXPIRED: 'Phiên đăng nhập đã hết hạn. Vui lòng đăng nhập lại.',
  REQUIRED_LOGIN: 'Vui lòng đăng nhập để tiếp tục.',
  MAX_FILE: codeMessages.MaxFile,
  OFFLINE: 'Không có kết nối mạng. Vui lòng kiểm tra kết nối rồi thử lại.',
  NETWORK: 'Không kết nối được tới máy chủ. Vui lòng thử lại.',
  TIMEOUT: 'Máy chủ phản hồi quá lâu. Vui lòng thử lại.',
} as const

export type ErrorKey = keyof typeof errorTexts

/** What the person is told when the device could not keep something (storage full, private mode, a broken database). */
export const deviceStorageTexts = {
  WALK_NOT_SAVED:
    'Không lưu được đường đi vào máy (bộ nhớ đầy?): nếu đóng ứng dụng, các điểm vừa ghi có thể mất. Hãy giải phóng bộ nhớ rồi đi tiếp.',
  HISTORY_NOT_SAVED:
    'Không lưu được kết quả vào lịch sử trên máy (bộ nhớ đầy?): kết quả vẫn hiện ở đây nhưng sẽ không mở lại được khi mất mạng.',
  HISTORY_UNAVAILABLE: 'Không đọc được lịch sử tra cứu trên máy này.',
  OUTBOX_NOT_SAVED:
    'Không lưu được ảnh vào hàng chờ trên máy (bộ nhớ đầy?): ảnh chưa gửi sẽ không được giữ nếu đóng ứng dụng.',
  OUTBOX_UNAVAILABLE: 'Không đọc được hàng chờ ảnh trên máy này.',
} as const
