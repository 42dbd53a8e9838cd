import { formatNumber } from '../../lib/format/format.ts'

/** Bytes as people read storage: "850 KB", "12,3 MB", "1,2 GB". */
export function formatBytes(bytes: number): string {
  if (bytes < 1024 * 1024) return `${formatNumber(Math.max(0, Math.round(bytes / 1024)))} KB`
  if (bytes < 1024 ** 3) return `${formatNumber(bytes / 1024 ** 2, 1)} MB`
  return `${formatNumber(bytes / 1024 ** 3, 1)} GB`
}

/** How old something is, in words: "vừa xong", "5 phút trước", "3 giờ trước", "12 ngày trước". */
export function formatAge(at: number, now: number = Date.now()): string {
  const minutes = Math.floor(Math.max(0, now - at) / 60_000)
  if (minutes < 1) return 'vừa xong'
  if (minutes < 60) return `${minutes} phút trước`
  const hours = Math.floor(minutes / 60)
  if (hours < 24) return `${hours} giờ trước`
  return `${Math.floor(hours / 24)} ngày trước`
}
