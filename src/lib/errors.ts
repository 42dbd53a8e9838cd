import { errorTexts } from '#core/messages.ts'
import { nextVietnamMidnight } from '#core/time/vietnam-time.ts'

export { errorTexts, nextVietnamMidnight }
export type { ErrorKey } from '#core/messages.ts'

const timeZone = 'Asia/Ho_Chi_Minh'

export function formatResetTime(resetsAt: Date): string {
  const time = new Intl.DateTimeFormat('vi-VN', { timeZone, hour: '2-digit', minute: '2-digit', hour12: false }).format(
    resetsAt,
  )
  const date = new Intl.DateTimeFormat('vi-VN', { timeZone, day: '2-digit', month: '2-digit', year: 'numeric' }).format(
    resetsAt,
  )
  return `${time} ngày ${date}`
}

/** MAX_USAGE with the moment new lookups become available. */
export function maxUsageText(resetsAt: Date): string {
  return `${errorTexts.MAX_USAGE} Lượt mới có từ ${formatResetTime(resetsAt)}.`
}
