/**
 * The arithmetic of the market estimate, free of the database so it can be checked by hand: features
 * of a property, the adjustment of each sale to the target (factor by factor, in % and đ/m², adding up
 * exactly), the weights, the weighted median, the range and the evidence behind the confidence.
 */

export const FEATURES = ['logVt1', 'alley', 'alleyLogWidth', 'logArea', 'logFrontage', 'floors', 'month'] as const
export type Feature = (typeof FEATURES)[number]
export type Elasticities = Record<Feature, number>

/** Factors as the contract names them: alley and its width are one factor to a reader. */
export const FACTORS = ['location', 'alley', 'area', 'frontage', 'floors', 'time'] as const
export type Factor = (typeof FACTORS)[number]
const FACTOR_OF: Record<Feature, Factor> = {
  logVt1: 'location',
  alley: 'alley',
  alleyLogWidth: 'alley',
  logArea: 'area',
  logFrontage: 'frontage',
  floors: 'floors',
  month: 'time',
}

export type PropertyFacts = {
  /** VT1 of the street's price row: where the property sits in the city's price map. */
  vt1: number | null
  /** 0 or null: fronts the street. */
  alley_width_m: number | null
  area_m2: number
  frontage_m: number | null
  floors: number | null
}

/** Alleys wider than this trade like 8 m ones: the width effect levels off. */
const ALLEY_WIDTH_CAP_M = 8

/** Feature values of a property; null where the fact is unknown (that adjustment is then skipped). */
export function features(f: PropertyFacts, month: number): Record<Feature, number | null> {
  const alley = (f.alley_width_m ?? 0) > 0
  return {
    logVt1: f.vt1 !== null && f.vt1 > 0 ? Math.log(f.vt1) : null,
    alley: alley ? 1 : 0,
    alleyLogWidth: alley ? Math.log(Math.min(f.alley_width_m ?? 0, ALLEY_WIDTH_CAP_M)) : 0,
    logArea: Math.log(f.area_m2),
    logFrontage: f.frontage_m !== null && f.frontage_m > 0 ? Math.log(Math.max(f.frontage_m, 2)) : null,
    floors: f.floors,
    month,
  }
}

/** Log effect of each factor taking the sale to the target; a factor unknown on either side is left out. */
export function logEffects(
  target: PropertyFacts,
  sale: PropertyFacts,
  ageMonths: number,
  b: Elasticities,
): { factor: Factor; log: number }[] {
  const t = features(target, 0)
  const s = features(sale, -ageMonths)
  const byFactor = new Map<Factor, number>()
  for (const name of FEATURES) {
    const tv = t[name]
    const sv = s[name]
    if (tv === null || sv === null) continue
    const factor = FACTOR_OF[name]
    byFactor.set(factor, (byFactor.get(factor) ?? 0) + b[name] * (tv - sv))
  }
  return FACTORS.filter((f) => byFactor.has(f)).map((factor) => ({ factor, log: byFactor.get(factor) as number }))
}

export type Adjustment = { factor: Factor; pct: number; vnd_per_m2: number }

/**
 * The chain from a sale's raw price per m² to its adjusted price: each factor as a percentage (two
 * decimals) applied in turn, and the đ/m² it moved the running price. By construction
 * round(raw × Π(1 + pct/100)) = adjusted and raw + Σ vnd_per_m2 = adjusted, to the đồng.
 */
export function adjustmentChain(
  rawVndPerM2: number,
  effects: { factor: Factor; log: number }[],
): { adjustments: Adjustment[]; adjusted: number } {
  let factor = 1
  let previous = rawVndPerM2
  const adjustments = effects.map((e) => {
    const pct = Math.round((Math.exp(e.log) - 1) * 10_000) / 100
    factor *= 1 + pct / 100
    const running = Math.round(rawVndPerM2 * factor)
    const step = { factor: e.factor, pct, vnd_per_m2: running - previous }
    previous = running
    return step
  })
  return { adjustments, adjusted: previous }
}

/** Weight of a sale before normalising: nearer and newer say more; a repeat sale of the parcel most. */
export function rawWeight(distanceM: number, ageMonths: number, relation: 'same_parcel' | 'same_row' | null): number {
  const base = (1 / (1 + (distanceM / 200) ** 2)) * 0.5 ** (ageMonths / 12)
  return base * (relation === 'same_parcel' ? REPEAT_SALE_WEIGHT : relation === 'same_row' ? SAME_ROW_WEIGHT : 1)
}
/** A past sale of the same parcel differs from the target only in time (and what the seller built). */
export const REPEAT_SALE_WEIGHT = 4
/** Houses of the same row share street, alley and depth: closer evidence than a sale round the corner. */
export const SAME_ROW_WEIGHT = 1.5

export function weightedQuantile(values: { v: number; w: number }[], q: number): number {
  const sorted = [...values].sort((a, b) => a.v - b.v)
  const total = sorted.reduce((s, x) => s + x.w, 0)
  let acc = 0
  for (const x of sorted) {
    acc += x.w
    if (acc >= q * total - 1e-12) return x.v
  }
  return sorted[sorted.length - 1]?.v ?? Number.NaN
}
