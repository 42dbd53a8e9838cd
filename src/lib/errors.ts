/** Vietnamese texts for the failures the app explains itself, whatever the server said. */
export const errorTexts = {
  UNKNOWN: 'Đã có lỗi xảy ra. Vui lòng thử lại sau.',
  EMPTY: 'Không có dữ liệu.',
  EMPTY_ESTATE: 'Không tìm thấy thông tin quy hoạch tại vị trí này.',
  EMPTY_VALUATION: 'Chưa có dữ liệu để định giá thửa đất này.',
  LOCATION_INCORRECT: 'Vị trí không hợp lệ hoặc nằm ngoài vùng có dữ liệu.',
  MAX_USAGE: 'Bạn đã dùng hết lượt tra cứu hôm nay.',
  TOKEN_EXPIRED: 'Phiên đăng nhập đã hết hạn. Vui lòng đăng nhập lại.',
  REQUIRED_LOGIN: 'Vui lòng đăng nhập để tiếp tục.',
  MAX_FILE: 'Tối đa 4 hình ảnh.',
  OFFLINE: 'Không có kết nối mạng. Vui lòng kiểm tra kết nối rồi thử lại.',
  NETWORK: 'Không kết nối được tới máy chủ. Vui lòng thử lại.',
  TIMEOUT: 'Máy chủ phản hồi quá lâu. Vui lòng thử lại.',
} as const

export type ErrorKey = keyof typeof errorTexts

const timeZone = 'Asia/Ho_Chi_Minh'

/** The next local midnight in Việt Nam, which is when the daily limit resets (CONTRACT.md). */
export function nextVietnamMidnight(now: Date): Date {
  // Việt Nam has no daylight saving: local time is always UTC+7.
  const offsetMs = 7 * 3600_000
  const local = new Date(now.getTime() + offsetMs)
  const midnightLocal = Date.UTC(local.getUTCFullYear(), local.getUTCMonth(), local.getUTCDate() + 1)
  return new Date(midnightLocal - offsetMs)
}

export function formatResetTime(resetsAt: Date): string {
  const time = new Intl.DateTimeFormat('vi-VN', { timeZone, hour: '2-digit', minute: '2-digit', hour12: false }).format(resetsAt)
  const date = new Intl.DateTimeFormat('vi-VN', { timeZone, day: '2-digit', month: '2-digit', year: 'numeric' }).format(resetsAt)
  return `${time} ngày ${date}`
}

/** MAX_USAGE with the moment new lookups become available. */
export function maxUsageText(resetsAt: Date): string {
  return `${errorTexts.MAX_USAGE} Lượt mới có từ ${formatResetTime(resetsAt)}.`
}
