import type { Comparable, ValuationData } from '#core/contract/lookups.ts'
import type { Queryable } from '../db/index.ts'
import { outsideStatementScope } from '../db/statement-scope.ts'
import { summarise, type AdjustedSale, type Summary } from './market-evidence.ts'
import {
  adjustmentChain,
  FEATURES,
  features,
  logEffects,
  rawWeight,
  weightedQuantile,
  type Factor,
  type Elasticities,
  type PropertyFacts,
} from './market-model.ts'
import { adjustmentNote } from './market-notes.ts'
import { vt1AtSql } from './price-row.ts'

export type { Elasticities } from './market-model.ts'

/**
 * Market estimate from nearby recent sales (comparables).
 *
 * Each sale's price per m² is adjusted to the target's facts with log-linear elasticities fitted once on
 * all comparables (ridge-shrunk towards typical values, so a sparse import still gets sane factors):
 * state VT1 price of the sale's street (location), alley or not and alley width, area, frontage, floors
 * and month of sale. The estimate is the weighted median of the adjusted prices of the nearest sales
 * (weights fall with distance and age); low/high are weighted quantiles of the same.
 */

export type MarketFacts = PropertyFacts & {
  lat: number
  lng: number
  /** The target parcel: its earlier sales are repeat sales. */
  parcel_id: string | null
  /** The street (or, for alley parcels, the street the alley opens on) that sets the row of houses. */
  street_id: string | null
}

/**
 * Typical effects in HCMC housing markets; the fit moves away from them as data allows. Tests that need
 * fixed effects use these.
 */
export const PRIOR: Readonly<Elasticities> = {
  logVt1: 1,
  alley: -0.6,
  alleyLogWidth: 0.2,
  logArea: -0.1,
  logFrontage: 0.1,
  floors: 0.03,
  month: 0.004,
}
const RIDGE = 10
const WINDOW_MONTHS = 24
/** Repeat sales count however old (time-adjusted): a parcel's own history is rare and telling. */
const REPEAT_WINDOW_MONTHS = 120
const RADII_M = [300, 600, 1200, 2500]
const MIN_SALES = 8
const MAX_SALES = 40
/** Same row of houses: same street or alley, same kind of frontage, a few doors either way. */
const SAME_ROW_M = 60
const DAY_MS = 86_400_000

type Sale = PropertyFacts & {
  id: string
  lat: number
  lng: number
  date: string
  price_vnd: number
  distance_m: number
  parcel_id: string | null
  street_id: string | null
}

const monthsBetween = (from: string, to: string) => (Date.parse(to) - Date.parse(from)) / DAY_MS / 30.44

/** Solves A x = b for a small dense system (Gaussian elimination with partial pivoting). */
function solve(a: number[][], b: number[]): number[] {
  const n = b.length
  const m = a.map((row, i) => [...row, b[i] as number])
  for (let col = 0; col < n; col++) {
    let pivot = col
    for (let r = col + 1; r < n; r++) if (Math.abs(m[r]![col]!) > Math.abs(m[pivot]![col]!)) pivot = r
    ;[m[col], m[pivot]] = [m[pivot]!, m[col]!]
    const p = m[col]![col]!
    for (let r = 0; r < n; r++) {
      if (r === col) continue
      const k = m[r]![col]! / p
      for (let c = col; c <= n; c++) m[r]![c]! -= k * m[col]![c]!
    }
  }
  return m.map((row, i) => row[n]! / row[i]!)
}

/** VT1 of the row matched for the parcel holding the sale point (price-row.ts): the location term of each sale, as of $2. */
const SALE_VT1_SQL = `(select ${vt1AtSql('p', '$2::date')} from parcels p
    where p.geom && c.geom and ST_Intersects(p.geom, c.geom) order by p.street_id is null, p.id limit 1)`

/**
 * Fits the elasticities on the most recent comparables (at most 5,000: plenty for seven coefficients),
 * leaving out `excludeIds` so a held-out test set stays unseen.
 */
export async function fitElasticities(
  db: Queryable,
  opts: { excludeIds?: string[]; datasetId?: string } = {},
): Promise<Elasticities> {
  const [last] = await db.query<{ d: string | null }>(
    'select max(observed_at)::text as d from comparables where $1::text is null or dataset_id = $1',
    [opts.datasetId ?? null],
  )
  const newest = last?.d ?? '2000-01-01'
  const rows = await db.query<PropertyFacts & { date: string; price_vnd: number }>(
    `select c.observed_at::text as date, c.price_vnd::float8 as price_vnd, c.area_m2::float8 as area_m2,
       c.frontage_m::float8 as frontage_m, c.alley_width_m::float8 as alley_width_m, c.floors::int as floors, ${SALE_VT1_SQL} as vt1
     from comparables c where c.area_m2 > 0 and c.price_vnd > 0 and not (c.id = any($1::bigint[])) and ($3::text is null or c.dataset_id = $3)
     order by c.observed_at desc, c.id limit 5000`,
    // Every sale's location on one table: the one in force at the newest sale.
    [opts.excludeIds ?? [], newest, opts.datasetId ?? null],
  )
  const latest = rows[0]?.date ?? '2000-01-01'
  // Normal equations with an intercept; the ridge term pulls each slope towards PRIOR.
  const k = FEATURES.length + 1
  const xtx = Array.from({ length: k }, () => new Array<number>(k).fill(0))
  const xty = new Array<number>(k).fill(0)
  for (const r of rows) {
    const f = features(r, monthsBetween(latest, r.date))
    const values = FEATURES.map((name) => f[name])
    if (values.some((v) => v === null)) continue
    const x = [1, ...(values as number[])]
    const y = Math.log(r.price_vnd / r.area_m2)
    for (let i = 0; i < k; i++) {
      xty[i]! += x[i]! * y
      for (let j = 0; j < k; j++) xtx[i]![j]! += x[i]! * x[j]!
    }
  }
  FEATURES.forEach((name, i) => {
    xtx[i + 1]![i + 1]! += RIDGE
    xty[i + 1]! += RIDGE * PRIOR[name]
  })
  xtx[0]![0]! += 1e-6
  const beta = solve(xtx, xty)
  return Object.fromEntries(FEATURES.map((name, i) => [name, beta[i + 1] as number])) as Elasticities
}

const cache = new WeakMap<Queryable, { version: number; elasticities: Promise<Elasticities> }>()

/** The fitted elasticities for data version `version` (read with the lookup's own statement), refitted whenever an import bumps it. */
export async function elasticitiesAt(db: Queryable, version: number): Promise<Elasticities> {
  const hit = cache.get(db)
  if (hit && hit.version === version) return hit.elasticities
  // Fitted once for every lookup awaiting it, so not cancelled with the request that happened to ask first.
  const elasticities = outsideStatementScope(() => fitElasticities(db))
  cache.set(db, { version, elasticities })
  elasticities.catch(() => cache.delete(db))
  return elasticities
}

/** The date estimates refer to: today ($n, a date), or the newest sale when the data is older than that. As SQL. */
export const marketAsOfSql = (today: string) => `least(${today}::date, (select max(observed_at) from comparables))`

export type MarketResult = {
  estimate: NonNullable<ValuationData['market_estimate']>
  comparables: Comparable[]
  summary: Summary
  /** The estimate per m² for other facts on the same sales: what one input changed. */
  reprice(target: MarketFacts): number
}

const SALE_COLUMNS = `c.id::text as id, ST_Y(c.geom)::float8 as lat, ST_X(c.geom)::float8 as lng, c.observed_at::text as date,
  c.price_vnd::float8 as price_vnd, c.area_m2::float8 as area_m2, c.frontage_m::float8 as frontage_m,
  c.alley_width_m::float8 as alley_width_m, c.floors::int as floors, sp.parcel_id, sp.street_id, sp.vt1,
  ST_Distance(c.geom::geography, pt.g::geography)::float8 as distance_m`

/** The parcel holding each sale point (a priced one first): its id, street and its row's VT1 on the as-of date's table ($6). */
const SALE_PARCEL_JOIN = `left join lateral (
    select p.id::text as parcel_id, p.street_id::text as street_id, ${vt1AtSql('p', '$6::date')} as vt1
    from parcels p where p.geom && c.geom and ST_Intersects(p.geom, c.geom) order by p.street_id is null, p.id limit 1) sp on true`

const monthsBefore = (asOf: string, months: number) =>
  new Date(Date.parse(asOf) - months * 30.44 * DAY_MS).toISOString().slice(0, 10)

/**
 * A usable sale observed from `from` up to the as-of date, not one of those left out. `byDate` false: the
 * date written so that no index on it matches, for a part bounded by its circle alone.
 */
const saleWindow = (from: string, byDate = true) =>
  `${byDate ? 'c.observed_at' : '(c.observed_at + 0)'} between ${from}::date and $6::date and c.area_m2 > 0 and c.price_vnd > 0 and not (c.id = any($7::bigint[]))`

/** The nearest sales (`own` false) and the parcel's own sales (`own` true), each part in its order. */
const SALES_SQL = `with pt as (select ST_SetSRID(ST_MakePoint($2::float8, $1::float8), 4326) as g),
  -- The point written out, not read from pt: the index orders by distance only to a value it is given.
  knn as (select c.geom from comparables c where ${saleWindow('$5')}
    order by c.geom <-> ST_SetSRID(ST_MakePoint($2::float8, $1::float8), 4326) limit ${MAX_SALES}),
  -- A centimetre more: ST_DWithin's own arithmetic may leave out the farthest of them at exactly that distance.
  reach as (select least(coalesce(max(ST_Distance(k.geom::geography, pt.g::geography)) + 0.01, $4::float8), $4::float8) as m from knn k cross join pt),
  -- The circle holds about MAX_SALES sales: the window is checked on those. A generic plan (the prepared
  -- statement's, after five runs) otherwise ANDed the circle with the date index's every sale of the window,
  -- 750,000 at 5 million parcels.
  near as (select c.*, row_number() over (order by ST_Distance(c.geom::geography, pt.g::geography), c.id) as rank from comparables c cross join pt cross join reach
    where c.geom && ST_Expand(pt.g, $3::float8 * reach.m / $4::float8) and ST_DWithin(c.geom::geography, pt.g::geography, reach.m) and ${saleWindow('$5', false)}
    order by rank limit ${MAX_SALES}),
  repeats as (select c.*, row_number() over (order by c.observed_at desc, c.id) as rank from parcels t join comparables c on c.geom && t.geom and ST_Intersects(t.geom, c.geom)
    where t.id = $8::bigint and ${saleWindow('$9')}
    order by rank limit 5),
  both_parts as (select false as own, * from near union all select true as own, * from repeats)
  select c.own, ${SALE_COLUMNS} from both_parts c cross join pt ${SALE_PARCEL_JOIN} order by c.own, c.rank`

/**
 * The nearest sales of the window within the smallest of RADII_M that holds MIN_SALES of them (else the
 * widest), and the parcel's own sales; one statement: the nearest MAX_SALES within the widest circle
 * hold the nearest MAX_SALES within each smaller one. Those are found without measuring every sale of
 * the widest circle (12,000 of them in a city of a million parcels): the index's MAX_SALES nearest in
 * degrees lie within some distance in metres, so the true nearest MAX_SALES do too, and only the sales
 * within that distance (about MAX_SALES) are measured and ranked, with the same answer.
 */
async function findSales(
  db: Queryable,
  target: MarketFacts,
  asOf: string,
  excludeIds: string[],
  keep: (s: Sale) => boolean,
): Promise<{ sales: Sale[]; radius: number; dropped: Sale[] }> {
  const widest = RADII_M[RADII_M.length - 1] as number
  const lngDeg = widest / (111_320 * Math.max(Math.cos((target.lat * Math.PI) / 180), 0.05))
  const rows = await db.query<Sale & { own: boolean }>(
    SALES_SQL,
    [
      target.lat,
      target.lng,
      lngDeg,
      widest,
      monthsBefore(asOf, WINDOW_MONTHS),
      asOf,
      excludeIds,
      target.parcel_id,
      monthsBefore(asOf, REPEAT_WINDOW_MONTHS),
    ],
    { prepare: 'market-sales' },
  )
  const strip = ({ own: _, ...s }: Sale & { own: boolean }): Sale => s
  const candidates = rows.filter((s) => !s.own).map(strip)
  const near = candidates.filter(keep)
  let sales = near
  let radius = widest
  for (const r of RADII_M) {
    const within = near.filter((s) => s.distance_m <= r)
    if (within.length >= MIN_SALES) {
      ;[sales, radius] = [within, r]
      break
    }
  }
  const dropped = candidates.filter((s) => s.distance_m <= radius && !keep(s))
  const seen = new Set(sales.map((s) => s.id))
  const own = rows.filter((s) => s.own && !seen.has(s.id)).map(strip)
  return { sales: [...sales, ...own], radius, dropped }
}

function relationOf(target: MarketFacts, s: Sale): 'same_parcel' | 'same_row' | null {
  if (target.parcel_id !== null && s.parcel_id === target.parcel_id) return 'same_parcel'
  const alleyT = target.alley_width_m ?? 0
  const alleyS = s.alley_width_m ?? 0
  const sameKind = alleyT > 0 ? alleyS === alleyT : alleyS === 0
  return target.street_id !== null && s.street_id === target.street_id && sameKind && s.distance_m <= SAME_ROW_M
    ? 'same_row'
    : null
}

/**
 * A sale whose location alone moves its price by more than this (either way) is in another market, not
 * a comparable: it is dropped and the answer says so (docs/domain.md, "Location adjustments").
 */
export const LOCATION_BOUND = 0.3
/** A recent sale of the parcel itself carries this share of the estimate (Decree 71/2024: the closest evidence). */
export const REPEAT_SHARE = 0.6
/** ... unless, adjusted, it lies this far (in log, ≈ ±35 %) from the weighted median of the other sales. */
export const REPEAT_OUTLIER_LOG = 0.3

/** The location adjustment a sale would need, as a share (+0.3 = +30 %): the state VT1 ratio under the fitted elasticity. */
export function locationShare(target: PropertyFacts, sale: PropertyFacts, b: Elasticities): number {
  if (!target.vt1 || !sale.vt1) return 0
  return Math.exp(b.logVt1 * (Math.log(target.vt1) - Math.log(sale.vt1))) - 1
}

type Adjusted = {
  s: Sale
  age: number
  relation: 'same_parcel' | 'same_row' | null
  raw: number
  effects: { factor: Factor; log: number }[]
  chain: ReturnType<typeof adjustmentChain>
  w: number
}

/**
 * Every sale adjusted to the target, factor by factor, with its share of the estimate. The parcel's own
 * sale of the last WINDOW_MONTHS, time-adjusted, carries REPEAT_SHARE of it, unless it is an outlier
 * against the others (then `repeatOutlier` says by how much and it keeps its ordinary weight).
 */
export function adjustSales(
  target: MarketFacts,
  sales: Sale[],
  asOf: string,
  b: Elasticities,
): { rows: Adjusted[]; repeatOutlier: { date: string; log: number } | null } {
  const rows = sales.map((s) => {
    const age = Math.max(0, monthsBetween(s.date, asOf))
    const relation = relationOf(target, s)
    const raw = Math.round(s.price_vnd / s.area_m2)
    const effects = logEffects(target, s, age, b)
    const chain = adjustmentChain(raw, effects)
    return { s, age, relation, raw, effects, chain, w: rawWeight(s.distance_m, age, relation) }
  })
  const total = rows.reduce((a, r) => a + r.w, 0)
  const normal = rows.map((r) => ({ ...r, w: r.w / total }))
  const repeat = normal
    .filter((r) => r.relation === 'same_parcel' && r.age <= WINDOW_MONTHS)
    .sort((x, y) => x.age - y.age)[0]
  const others = normal.filter((r) => r !== repeat)
  if (!repeat || others.length === 0) return { rows: normal, repeatOutlier: null }
  const median = weightedQuantile(
    others.map((r) => ({ v: Math.log(r.chain.adjusted), w: r.w })),
    0.5,
  )
  const gap = Math.log(repeat.chain.adjusted) - median
  if (Math.abs(gap) > REPEAT_OUTLIER_LOG) return { rows: normal, repeatOutlier: { date: repeat.s.date, log: gap } }
  const rest = others.reduce((a, r) => a + r.w, 0)
  return {
    rows: normal.map((r) => ({ ...r, w: r === repeat ? REPEAT_SHARE : (r.w / rest) * (1 - REPEAT_SHARE) })),
    repeatOutlier: null,
  }
}

function toComparable(target: MarketFacts, r: Adjusted, asOf: string): Comparable {
  const { s } = r
  return {
    id: s.id,
    lat: s.lat,
    lng: s.lng,
    date: s.date,
    price_vnd: s.price_vnd,
    vnd_per_m2: r.raw,
    area_m2: s.area_m2,
    distance_m: Math.round(s.distance_m * 10) / 10,
    adjustments: r.chain.adjustments.map((a) => ({ ...a, note: adjustmentNote(a.factor, target, s, r.age, asOf) })),
    adjusted_vnd_per_m2: r.chain.adjusted,
    weight: Math.round(r.w * 10_000) / 10_000,
    repeat_sale: r.relation === 'same_parcel',
    same_row: r.relation === 'same_row',
    frontage_m: s.frontage_m,
    alley_width_m: s.alley_width_m,
    floors: s.floors,
  }
}

const million = (v: number) => Math.round(v / 1e6) * 1e6
const pctText = (x: number) => `${x > 0 ? '+' : x < 0 ? '−' : '±'}${Math.round(Math.abs(x) * 100)}\u00a0%`
const monthYear = (date: string) => {
  const [y, m] = date.split('-')
  return `${Number(m)}/${y}`
}
/** Decree 71/2024 asks for at least three comparables for the comparison method. */
export const MIN_COMPARABLES = 3

function methodText(n: number, radius: number, repeat: Comparable | undefined, sameRow: number): string {
  const parts = [
    `Trung vị có trọng số của đơn giá đã điều chỉnh từ ${n} giao dịch trong bán kính ${radius.toLocaleString('vi-VN')} m, ${WINDOW_MONTHS} tháng gần nhất; ` +
      'mỗi giao dịch được điều chỉnh theo vị trí (giá nhà nước VT1 của tuyến), hẻm, diện tích, mặt tiền, số tầng và thời gian.',
  ]
  if (repeat) {
    parts.push(
      `Thửa này đã được bán tháng ${monthYear(repeat.date)}: giao dịch đó, đưa về giá ngày ước tính, có trọng số lớn nhất (${Math.round((repeat.weight ?? 0) * 100)} %).`,
    )
  }
  if (sameRow > 0) parts.push(`${sameRow} giao dịch cùng dãy nhà được tính trọng số cao hơn.`)
  return parts.join(' ')
}

/** Gross adjustment of a comparable, Σ|pct|: how unlike the target it is (Decree 71's "similarity"). */
const gross = (c: Comparable) => (c.adjustments ?? []).reduce((a, x) => a + Math.abs(x.pct), 0)

/**
 * The order Decree 71/2024 ranks comparables in: the parcel's own sales first, then by recency (in
 * half-years), then similarity (the smallest gross adjustment), then distance.
 */
export function rankComparables(comparables: Comparable[], asOf: string): Comparable[] {
  const halfYear = (c: Comparable) => Math.floor(Math.max(0, monthsBetween(c.date, asOf)) / 6)
  return [...comparables].sort(
    (a, b) =>
      Number(b.repeat_sale) - Number(a.repeat_sale) ||
      halfYear(a) - halfYear(b) ||
      gross(a) - gross(b) ||
      a.distance_m - b.distance_m,
  )
}

const evidenceOf = (rows: Adjusted[]): AdjustedSale[] =>
  rows.map((r) => ({
    log: Math.log(r.chain.adjusted),
    rawLog: Math.log(r.raw),
    w: r.w,
    distance_m: r.s.distance_m,
    age_months: r.age,
    facts: r.s,
    effects: r.effects,
  }))

export async function estimateMarket(
  db: Queryable,
  target: MarketFacts,
  opts: { asOf: string; elasticities: Elasticities; excludeIds?: string[] },
): Promise<MarketResult | null> {
  const b = opts.elasticities
  const keep = (s: Sale) => Math.abs(locationShare(target, s, b)) <= LOCATION_BOUND
  const { sales, radius, dropped } = await findSales(db, target, opts.asOf, opts.excludeIds ?? [], keep)
  if (sales.length === 0) return null
  const { rows: adjusted, repeatOutlier } = adjustSales(target, sales, opts.asOf, b)
  const summary = summarise(target, evidenceOf(adjusted), radius)
  if (repeatOutlier) {
    summary.warnings.push(
      `Giao dịch trước của chính thửa này (tháng ${monthYear(repeatOutlier.date)}) sau điều chỉnh lệch ${pctText(Math.exp(repeatOutlier.log) - 1)} so với các giao dịch khác: có thể là giao dịch bất thường (giữa người thân, bán gấp, nhà đã sửa lớn), nên không được ưu tiên.`,
    )
  }
  if (sales.length < MIN_COMPARABLES) {
    summary.warnings.push(
      `Chỉ có ${sales.length} giao dịch so sánh phù hợp; Nghị định 71/2024 cần ít nhất ${MIN_COMPARABLES}: phương pháp so sánh chỉ để tham khảo.`,
    )
  }
  const comparables = rankComparables(
    adjusted.map((r) => toComparable(target, r, opts.asOf)),
    opts.asOf,
  )
  const perM2 = Math.exp(summary.midLog)
  const area = target.area_m2
  return {
    estimate: {
      low_vnd: million(Math.exp(summary.loLog) * area),
      mid_vnd: million(perM2 * area),
      high_vnd: million(Math.exp(summary.hiLog) * area),
      vnd_per_m2: Math.round(perM2 / 1000) * 1000,
      confidence: summary.confidence,
      method: methodText(
        sales.length,
        radius,
        comparables.find((c) => c.repeat_sale && c.weight === REPEAT_SHARE),
        comparables.filter((c) => c.same_row).length,
      ),
      as_of: opts.asOf,
      confidence_level: summary.level,
      warnings: summary.warnings,
      excluded: dropped.map((s) => ({
        id: s.id,
        date: s.date,
        distance_m: Math.round(s.distance_m * 10) / 10,
        vnd_per_m2: Math.round(s.price_vnd / s.area_m2),
        reason: `Cần điều chỉnh vị trí ${pctText(locationShare(target, s, b))} (giá nhà nước VT1 của tuyến ${Math.round((s.vt1 ?? 0) / 1e6)} triệu thay vì ${Math.round((target.vt1 ?? 0) / 1e6)} triệu đ/m²), quá giới hạn ±${LOCATION_BOUND * 100} %: khác thị trường.`,
      })),
    },
    comparables,
    summary,
    reprice: (other) =>
      Math.exp(summarise(other, evidenceOf(adjustSales(other, sales, opts.asOf, b).rows), radius).midLog),
  }
}
