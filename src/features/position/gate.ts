import { formatAccuracy, formatPrecise, QUALITY_WORDS, type Fix } from './fix.ts'
import type { PositionSnapshot } from './source.ts'

export type CaptureCheck = { ok: true; fix: Fix } | { ok: false; reason: string }

/**
 * Whether the position may be captured now (a walk's vertex, a corner found, an averaged sample), and
 * if not, why, in words: nothing is taken from a stale fix, a receiver without a solution, a solution
 * that just dropped, or one less accurate than the gate ("độ chính xác tối thiểu").
 */
export function checkCapture(p: PositionSnapshot): CaptureCheck {
  const fix = p.fix
  if (p.status === 'stale')
    return { ok: false, reason: 'Vị trí đã cũ: không nhận được dữ liệu mới. Kiểm tra máy thu hoặc GPS.' }
  if (p.status === 'no-solution') return { ok: false, reason: 'Máy thu chưa có lời giải vị trí.' }
  if (p.status === 'error') return { ok: false, reason: p.phoneError ?? 'Không định vị được.' }
  if (!fix || p.status === 'waiting' || p.status === 'off') return { ok: false, reason: 'Đang chờ vị trí…' }
  if (p.status === 'dropped')
    return {
      ok: false,
      reason: `Chất lượng định vị vừa giảm xuống ${QUALITY_WORDS[fix.quality]}. Chờ lời giải tốt lại, hoặc chấp nhận mức này.`,
    }
  if (fix.accuracyM === null) return { ok: false, reason: 'Nguồn định vị không cho biết sai số, nên chưa ghi được.' }
  if (fix.accuracyM > p.settings.gateM)
    return {
      ok: false,
      reason: `Sai số ${formatAccuracy(fix.accuracyM)} lớn hơn mức tối thiểu đã đặt (${formatPrecise(p.settings.gateM)}). Đứng yên chờ tín hiệu tốt hơn.`,
    }
  return { ok: true, fix }
}
