import { z } from 'zod'
import type { ValuationData } from '#core/contract/lookups.ts'
import { matchNote, type PriceRowRecord } from './price-row.ts'

/**
 * How a province turns a parcel's frontage, alley width and depth into a price position (VT1–VT4).
 * Stored per province in price_position_rules as data. Both kinds share one evaluation: alley-width
 * thresholds pick the position, the row's own VT column gives the price (or, for 'ratio' tables that list
 * only VT1, the chained ratios), and depth from the street takes off a share of the price.
 */
const ratioRule = z.object({
  kind: z.literal('ratio'),
  vt2: z.number().positive(),
  vt3: z.number().positive(),
  vt4: z.number().positive(),
  alley_vt2_min_m: z.number().nonnegative(),
  alley_vt3_min_m: z.number().nonnegative(),
  deep_m: z.number().positive().optional(),
  deep_reduction: z.number().min(0).max(1).optional(),
})
const widthRule = z.object({
  kind: z.literal('width'),
  vt2_min_m: z.number().nonnegative(),
  vt3_min_m: z.number().nonnegative(),
  distance_step_m: z.number().positive().optional(),
  distance_reduction: z.number().min(0).max(1).optional(),
  max_reduction: z.number().min(0).max(1).optional(),
})
export const priceRule = z.discriminatedUnion('kind', [ratioRule, widthRule])
export type PriceRule = z.infer<typeof priceRule>

type Normalised = {
  vt2MinM: number
  vt3MinM: number
  /** Each position's price as a share of the one above, when the table lists only VT1. */
  ratios: [number, number, number] | null
  /** Every full `stepM` from the street takes `reduction` off, up to `maxReduction`. */
  depth: { stepM: number; reduction: number; maxReduction: number } | null
}

function normalise(rule: PriceRule): Normalised {
  if (rule.kind === 'ratio') {
    return {
      vt2MinM: rule.alley_vt2_min_m,
      vt3MinM: rule.alley_vt3_min_m,
      ratios: [rule.vt2, rule.vt3, rule.vt4],
      // TP.HCM: a position 100 m or more from the street is reduced once.
      depth:
        rule.deep_m && rule.deep_reduction
          ? { stepM: rule.deep_m, reduction: rule.deep_reduction, maxReduction: rule.deep_reduction }
          : null,
    }
  }
  return {
    vt2MinM: rule.vt2_min_m,
    vt3MinM: rule.vt3_min_m,
    ratios: null,
    depth:
      rule.distance_step_m && rule.distance_reduction
        ? {
            stepM: rule.distance_step_m,
            reduction: rule.distance_reduction,
            maxReduction: rule.max_reduction ?? rule.distance_reduction * 3,
          }
        : null,
  }
}

export type PositionFacts = { alley_width_m: number | null; distance_m: number | null }
export type PriceColumns = { vt1: number; vt2: number | null; vt3: number | null; vt4: number | null }
export type Position = 'VT1' | 'VT2' | 'VT3' | 'VT4'

/** The position and đ/m² for one parcel under one province's rule; null when the table cannot price that position. */
export function priceAtPosition(
  rule: PriceRule,
  row: PriceColumns,
  facts: PositionFacts,
): { position: Position; price: number } | null {
  const r = normalise(rule)
  const alley = facts.alley_width_m ?? 0
  const index = alley <= 0 ? 0 : alley >= r.vt2MinM ? 1 : alley >= r.vt3MinM ? 2 : 3
  const listed = [row.vt1, row.vt2, row.vt3, row.vt4]
  let price = listed[index] ?? null
  if (price === null && r.ratios) price = r.ratios.slice(0, index).reduce((p, k) => p * k, row.vt1)
  if (price === null) return null
  const distance = alley > 0 ? (facts.distance_m ?? 0) : 0
  if (r.depth && distance >= r.depth.stepM) {
    price *= 1 - Math.min(Math.floor(distance / r.depth.stepM) * r.depth.reduction, r.depth.maxReduction)
  }
  return {
    position: (['VT1', 'VT2', 'VT3', 'VT4'] as const)[index] as Position,
    price: Math.round(price / 1000) * 1000,
  }
}

/** The state price of the parcel's position from its matched row (price-row.ts) and its province's rule (price_position_rules.rule). */
export function statePriceFrom(
  row: PriceRowRecord | null,
  rule: unknown,
  facts: PositionFacts,
): { state: ValuationData['state_price']; vt1: number | null; unreadableRule?: string } {
  if (!row) return { state: null, vt1: null }
  const parsed = rule ? priceRule.safeParse(rule) : null
  // A stored rule that does not read is a fault in the data, not a parcel the table cannot price: said, not hidden.
  if (parsed && !parsed.success) return { state: null, vt1: row.vt1, unreadableRule: z.prettifyError(parsed.error) }
  // Without the province's rule only a parcel on the street is placed: VT1 is the street's own price.
  const priced = parsed?.success
    ? priceAtPosition(parsed.data, row, facts)
    : (facts.alley_width_m ?? 0) <= 0
      ? { position: 'VT1' as const, price: row.vt1 }
      : null
  if (!priced) return { state: null, vt1: row.vt1 }
  const segment =
    row.segment_from && row.segment_to
      ? `Từ ${row.segment_from} đến ${row.segment_to}`
      : row.segment_from || row.segment_to
  return {
    state: {
      year: row.year,
      street: row.street_name,
      segment,
      position: priced.position,
      price_vnd_per_m2: priced.price,
      source: row.source,
      decision_no: row.decision_no || null,
      effective_from: row.effective_from,
      segment_from: row.segment_from,
      segment_to: row.segment_to,
      district: row.district,
      prices: { VT1: row.vt1, VT2: row.vt2, VT3: row.vt3, VT4: row.vt4 },
      note: matchNote(row),
      k_coefficient: row.k,
      adjusted_vnd_per_m2: row.k === null ? null : Math.round((priced.price * row.k) / 1000) * 1000,
    },
    vt1: row.vt1,
  }
}
