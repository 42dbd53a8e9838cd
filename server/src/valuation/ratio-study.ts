import type { ConfidenceLevel } from '#core/contract/lookups.ts'
import type { Queryable } from '../db/index.ts'
import { estimateMarket, fitElasticities } from './market.ts'
import { CALIBRATION, LEVEL_MIN } from './market-evidence.ts'
import { valuateWithScore } from './valuation.ts'

/**
 * A ratio study as assessors run one (IAAO): value sales the model never saw and compare. A sale is held
 * out by a stable key of its own, a hash of its place and date (`foldOf`), never by its row id, so the
 * same sales are held out whatever was imported before them and the study prints the same figures in
 * any run. The fit leaves them out and each is valued as of its own date from the other sales only.
 * `thin` keeps one sale in `thin` of the rest (by the same key), a sparse market on the same land, so
 * the low-evidence confidence levels get measured too. `datasetId` keeps the study to one dataset's
 * sales (and the fit to them), so other data in the database changes nothing.
 */

export type HeldOut = {
  id: string
  truth: number
  low: number
  mid: number
  high: number
  confidence: number
  level: ConfidenceLevel
  warnings: number
  score: number
}

type Sale = {
  id: string
  lat: number
  lng: number
  date: string
  price: number
  area_m2: number
  frontage_m: number | null
  alley_width_m: number | null
  floors: number | null
}

/** FNV-1a, 32 bits: a hash that is the same on every machine and in every run. */
function fnv1a(text: string): number {
  let h = 0x811c9dc5
  for (let i = 0; i < text.length; i++) {
    h ^= text.charCodeAt(i)
    h = Math.imul(h, 0x01000193) >>> 0
  }
  return h
}

/** The sale's stable key: its place to the centimetre and its date. */
export const saleKey = (s: { lat: number; lng: number; date: string }) =>
  fnv1a(`${s.lng.toFixed(7)},${s.lat.toFixed(7)},${s.date}`)
export const foldOf = (s: { lat: number; lng: number; date: string }) => saleKey(s) % 10

export async function heldOutSales(
  db: Queryable,
  opts: { fold: number; thin?: number; limit?: number; datasetId?: string },
): Promise<HeldOut[]> {
  const all = await db.query<Sale>(
    `select id::text as id, ST_Y(geom)::float8 as lat, ST_X(geom)::float8 as lng, observed_at::text as date, price_vnd::float8 as price,
       area_m2::float8 as area_m2, frontage_m::float8 as frontage_m, alley_width_m::float8 as alley_width_m, floors
     from comparables where ($1::text is null or dataset_id = $1) and area_m2 > 0 and price_vnd > 0`,
    [opts.datasetId ?? null],
  )
  const keyed = all
    .map((s) => ({ ...s, key: saleKey(s) }))
    .sort((a, b) => a.key - b.key || a.date.localeCompare(b.date))
  const held = keyed.filter((s) => s.key % 10 === opts.fold).slice(0, opts.limit ?? 100_000)
  const thin = opts.thin ?? 1
  const hidden =
    thin > 1
      ? keyed.filter((s) => s.key % 10 !== opts.fold && Math.floor(s.key / 10) % thin !== 0).map((s) => s.id)
      : []
  const elasticities = await fitElasticities(db, {
    excludeIds: [...held.map((s) => s.id), ...hidden],
    ...(opts.datasetId ? { datasetId: opts.datasetId } : {}),
  })
  const out: HeldOut[] = []
  for (const s of held) {
    const { data: v, score } = await valuateWithScore(
      db,
      {
        lat: s.lat,
        lng: s.lng,
        area_m2: s.area_m2,
        frontage_m: s.frontage_m ?? undefined,
        alley_width_m: s.alley_width_m ?? 0,
        floors: s.floors ?? undefined,
      },
      { asOf: s.date, elasticities, excludeIds: [s.id, ...hidden] },
    )
    const m = v.market_estimate
    if (!m) continue
    out.push({
      id: s.id,
      truth: s.price,
      low: m.low_vnd,
      mid: m.mid_vnd,
      high: m.high_vnd,
      confidence: m.confidence,
      level: m.confidence_level ?? 'thap',
      warnings: m.warnings?.length ?? 0,
      score: score ?? 0,
    })
  }
  return out
}

const median = (xs: number[]) => {
  const s = [...xs].sort((a, b) => a - b)
  const n = s.length
  return n === 0
    ? Number.NaN
    : n % 2
      ? (s[(n - 1) / 2] as number)
      : ((s[n / 2 - 1] as number) + (s[n / 2] as number)) / 2
}

export type LevelRow = { level: ConfidenceLevel; n: number; stated: number; inside: number }
export type Study = {
  n: number
  /** Median absolute percentage error of the mid estimate, 0..1. */
  mdape: number
  /** Coefficient of dispersion of estimate/true ratios around their median, in % (IAAO: ≤ 10–15 for homes). */
  cod: number
  /** Price-related differential: mean ratio over the value-weighted ratio (IAAO: 0.98–1.03). */
  prd: number
  inside: number
  levels: LevelRow[]
}

export function ratioStudy(rows: HeldOut[]): Study {
  const ratios = rows.map((r) => r.mid / r.truth)
  const med = median(ratios)
  const mean = ratios.reduce((a, b) => a + b, 0) / ratios.length
  const weighted = rows.reduce((a, r) => a + r.mid, 0) / rows.reduce((a, r) => a + r.truth, 0)
  const isInside = (r: HeldOut) => r.truth >= r.low && r.truth <= r.high
  const levels = (['cao', 'trung_binh', 'thap'] as const).map((level) => {
    const of = rows.filter((r) => r.level === level)
    return {
      level,
      n: of.length,
      stated: of.length ? Math.min(...of.map((r) => r.confidence)) : LEVEL_MIN[level],
      inside: of.length ? of.filter(isInside).length / of.length : Number.NaN,
    }
  })
  return {
    n: rows.length,
    mdape: median(rows.map((r) => Math.abs(r.mid - r.truth) / r.truth)),
    cod: (100 * median(ratios.map((x) => Math.abs(x - med)))) / med,
    prd: mean / weighted,
    inside: rows.filter(isInside).length / rows.length,
    levels,
  }
}

/** Measured coverage per calibration band: what CALIBRATION's figures must stay at or below. */
export function bandCoverage(rows: HeldOut[]): { coverage: number; n: number; inside: number }[] {
  return CALIBRATION.map((band) => {
    const of = rows.filter((r) => r.confidence === band.coverage)
    return {
      coverage: band.coverage,
      n: of.length,
      inside: of.length ? of.filter((r) => r.truth >= r.low && r.truth <= r.high).length / of.length : Number.NaN,
    }
  })
}

/**
 * The same study on points without parcels (listings imported as comparables): each held-out record is
 * valued from the others by the comparison method alone, with the facts it states and no state price.
 */
export async function heldOutPoints(db: Queryable, opts: { fold: number; datasetId: string }): Promise<HeldOut[]> {
  const all = await db.query<Sale>(
    `select id::text as id, ST_Y(geom)::float8 as lat, ST_X(geom)::float8 as lng, observed_at::text as date, price_vnd::float8 as price,
       area_m2::float8 as area_m2, frontage_m::float8 as frontage_m, alley_width_m::float8 as alley_width_m, floors
     from comparables where dataset_id = $1 and area_m2 > 0 and price_vnd > 0`,
    [opts.datasetId],
  )
  const held = all
    .map((s) => ({ ...s, key: saleKey(s) }))
    .filter((s) => s.key % 10 === opts.fold)
    .sort((a, b) => a.key - b.key)
  const elasticities = await fitElasticities(db, { excludeIds: held.map((s) => s.id), datasetId: opts.datasetId })
  const out: HeldOut[] = []
  for (const s of held) {
    const market = await estimateMarket(
      db,
      {
        lat: s.lat,
        lng: s.lng,
        parcel_id: null,
        street_id: null,
        vt1: null,
        area_m2: s.area_m2,
        frontage_m: s.frontage_m,
        alley_width_m: s.alley_width_m ?? 0,
        floors: s.floors,
      },
      { asOf: s.date, elasticities, excludeIds: [s.id] },
    )
    if (!market) continue
    const m = market.estimate
    out.push({
      id: s.id,
      truth: s.price,
      low: m.low_vnd,
      mid: m.mid_vnd,
      high: m.high_vnd,
      confidence: m.confidence,
      level: m.confidence_level ?? 'thap',
      warnings: m.warnings?.length ?? 0,
      score: market.summary.score,
    })
  }
  return out
}
