import { formatAccuracy, formatAge, QUALITY_WORDS } from './fix.ts'
import type { PositionSnapshot } from './source.ts'

/** Statuses shown in red on every screen that uses the position. */
export const alarming = (p: PositionSnapshot) =>
  p.status === 'stale' || p.status === 'dropped' || p.status === 'no-solution' || p.status === 'error'

const SOURCE_WORDS = { phone: 'GPS điện thoại', receiver: 'Máy thu' } as const

/** One line for the position: "Máy thu · RTK cố định · ± 2 cm · 18 vệ tinh · vừa xong", or what is wrong. */
export function readoutLine(p: PositionSnapshot): string {
  const fix = p.fix
  const age = p.lastAt === null ? '' : formatAge(p.now - p.lastAt)
  switch (p.status) {
    case 'off':
      return 'Định vị đang tắt'
    case 'error':
      return p.phoneError ?? 'Không định vị được'
    case 'waiting':
      return p.active === 'receiver' ? 'Máy thu đã kết nối, đang chờ vị trí…' : 'Đang chờ tín hiệu GPS…'
    case 'stale':
      return `MẤT TÍN HIỆU — vị trí cuối ${age}, không dùng để đo`
    case 'no-solution':
      return `${SOURCE_WORDS[p.active]}: chưa có lời giải vị trí (${age})`
  }
  if (!fix) return 'Đang chờ vị trí…'
  const parts = [
    SOURCE_WORDS[p.active],
    // The phone says nothing of its solution: its source's name is all there is.
    ...(fix.quality === 'phone' ? [] : [QUALITY_WORDS[fix.quality]]),
    formatAccuracy(fix.accuracyM),
    ...(fix.satellites !== null ? [`${fix.satellites} vệ tinh`] : []),
    age,
  ]
  const line = parts.join(' · ')
  return p.status === 'dropped' ? `CHẤT LƯỢNG GIẢM — ${line}` : line
}
