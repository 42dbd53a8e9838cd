import { foldVietnamese } from '#core/text/fold.ts'

/**
 * What the search list says above answers none of which holds every word typed ("nguyen hue" finding
 * only other Nguyễn streets): that there is no exact match, so the list is not mistaken for one.
 */
export function inexactNote(query: string, labels: readonly string[]): string | undefined {
  const words = foldVietnamese(query).split(/\s+/).filter(Boolean)
  if (words.length === 0 || labels.length === 0) return undefined
  const exact = labels.some((label) => {
    const folded = foldVietnamese(label)
    return words.every((w) => folded.includes(w))
  })
  return exact ? undefined : `Không có kết quả đúng “${query}”; các kết quả gần giống:`
}
