import { resolveProvince } from '../geo/provinces.ts'
import { foldVietnamese } from './fold.ts'

/** Whether one of the comma-separated pieces of a kept part names the same province ("TP. Hồ Chí Minh", "TP.HCM"). */
const namesProvince = (kept: string, province: string) =>
  kept.split(',').some((piece) => resolveProvince(piece)?.name === province)

/**
 * Parts of a place joined with ", ", each left out when an earlier part already names it: an address
 * stored as "12 Đường Số 5, Phường Gia An" followed by its ward reads "…, Phường Gia An" once, not twice,
 * and one ending "TP. Hồ Chí Minh" is not followed by "Thành phố Hồ Chí Minh".
 */
export function placeLine(parts: readonly (string | null | undefined)[]): string {
  const kept: string[] = []
  for (const part of parts) {
    const p = part?.trim()
    if (!p) continue
    const folded = foldVietnamese(p)
    if (kept.some((k) => foldVietnamese(k).includes(folded))) continue
    const province = resolveProvince(p)?.name
    if (province && kept.some((k) => namesProvince(k, province))) continue
    kept.push(p)
  }
  return kept.join(', ')
}
