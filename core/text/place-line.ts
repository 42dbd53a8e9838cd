import { foldVietnamese } from './fold.ts'

/**
 * Parts of a place joined with ", ", each left out when an earlier part already names it: an address
 * stored as "12 Đường Số 5, Phường Gia An" followed by its ward reads "…, Phường Gia An" once, not twice.
 */
export function placeLine(parts: readonly (string | null | undefined)[]): string {
  const kept: string[] = []
  for (const part of parts) {
    const p = part?.trim()
    if (!p) continue
    const folded = foldVietnamese(p)
    if (kept.some((k) => foldVietnamese(k).includes(folded))) continue
    kept.push(p)
  }
  return kept.join(', ')
}
