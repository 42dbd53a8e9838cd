import { landUseCodes } from '#core/planning/land-use.ts'

export type LegendEntry = { code: string; name: string; color: string }

/**
 * The legend for the codes on screen, in the order of the national list (core/planning/land-use.ts;
 * unknown codes last, by code). Tiles carry only the code and colour, so the names come from there.
 */
export function legendFor(codes: Iterable<{ code: string; color?: string }>): LegendEntry[] {
  const seen = new Map<string, LegendEntry>()
  for (const { code, color } of codes) {
    if (!code || seen.has(code)) continue
    const known = landUseCodes[code]
    seen.set(code, { code, name: known?.name ?? code, color: color ?? known?.color ?? '#cccccc' })
  }
  const order = Object.keys(landUseCodes)
  const rank = (code: string) => {
    const i = order.indexOf(code)
    return i < 0 ? order.length : i
  }
  return [...seen.values()].sort((a, b) => rank(a.code) - rank(b.code) || a.code.localeCompare(b.code))
}
