import type { ValuationData } from '#core/contract/lookups.ts'
import type { Database, Queryable } from '../db/index.ts'

/**
 * Market estimate from nearby recent sales (comparables).
 *
 * Each sale's price per m² is adjusted to the target's facts with log-linear elasticities fitted once on
 * all comparables (ridge-shrunk towards typical values, so a sparse import still gets sane factors):
 * state VT1 price of the sale's street (location), alley or not and alley width, area, frontage, floors
 * and month of sale. The estimate is the weighted median of the adjusted prices of the nearest sales
 * (weights fall with distance and age); low/high are weighted quantiles of the same.
 */

export type MarketFacts = {
  lat: number
  lng: number
  area_m2: number
  frontage_m: number | null
  /** 0 or null: fronts the street. */
  alley_width_m: number | null
  floors: number | null
  /** VT1 of the street's price row: where the parcel sits in the city's price map. */
  vt1: number | null
}

const FEATURES = ['logVt1', 'alley', 'alleyLogWidth', 'logArea', 'logFrontage', 'floors', 'month'] as const
type Feature = (typeof FEATURES)[number]
export type Elasticities = Record<Feature, number>

/** Typical effects in HCMC housing markets; the fit moves away from them as data allows. */
const PRIOR: Elasticities = { logVt1: 1, alley: -0.6, alleyLogWidth: 0.2, logArea: -0.1, logFrontage: 0.1, floors: 0.03, month: 0.004 }
const RIDGE = 10
const WINDOW_MONTHS = 24
const RADII_M = [300, 600, 1200, 2500]
const MIN_SALES = 8
const MAX_SALES = 40
const DAY_MS = 86_400_000

type Sale = {
  id: string
  lat: number
  lng: number
  date: string
  price_vnd: number
  area_m2: number
  frontage_m: number | null
  alley_width_m: number | null
  floors: number | null
  vt1: number | null
  distance_m: number
}

const monthsBetween = (from: string, to: string) => (Date.parse(to) - Date.parse(from)) / DAY_MS / 30.44

/** Feature values of a property; null where the fact is unknown (that adjustment is then skipped). */
function features(f: { vt1: number | null; alley_width_m: number | null; area_m2: number; frontage_m: number | null; floors: number | null }, month: number): Record<Feature, number | null> {
  // As on parcels, no alley width means the property fronts the street.
  const alley = (f.alley_width_m ?? 0) > 0
  return {
    logVt1: f.vt1 !== null && f.vt1 > 0 ? Math.log(f.vt1) : null,
    alley: alley ? 1 : 0,
    alleyLogWidth: alley ? Math.log(Math.min(f.alley_width_m ?? 0, 8)) : 0,
    logArea: Math.log(f.area_m2),
    logFrontage: f.frontage_m !== null && f.frontage_m > 0 ? Math.log(Math.max(f.frontage_m, 2)) : null,
    floors: f.floors,
    month,
  }
}

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

/** VT1 of the street whose parcel holds the sale point: the location term of each sale. */
const SALE_VT1_SQL = `(select pr.vt1::float8 from parcels p join streets s on s.id = p.street_id
    join price_rows pr on pr.street_id = s.id or (pr.street_id is null and pr.province = p.province and pr.street_fold = s.name_fold)
    where p.geom && c.geom and ST_Intersects(p.geom, c.geom) order by pr.year desc, pr.id limit 1)`

/**
 * Fits the elasticities on the most recent comparables (at most 5,000: plenty for seven coefficients),
 * leaving out `excludeIds` so a held-out test set stays unseen.
 */
export async function fitElasticities(db: Queryable, opts: { excludeIds?: string[] } = {}): Promise<Elasticities> {
  const rows = await db.query<Sale>(
    `select c.id::text as id, c.observed_at::text as date, c.price_vnd::float8 as price_vnd, c.area_m2::float8 as area_m2,
       c.frontage_m::float8 as frontage_m, c.alley_width_m::float8 as alley_width_m, c.floors::int as floors, ${SALE_VT1_SQL} as vt1
     from comparables c where c.area_m2 > 0 and c.price_vnd > 0 and not (c.id = any($1::bigint[]))
     order by c.observed_at desc, c.id limit 5000`,
    [opts.excludeIds ?? []],
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

/** The fitted elasticities, refitted whenever an import bumps data_version. */
export async function currentElasticities(db: Database): Promise<Elasticities> {
  const [row] = await db.query<{ version: number }>('select version::float8 as version from data_version')
  const version = row?.version ?? 0
  const hit = cache.get(db)
  if (hit && hit.version === version) return hit.elasticities
  const elasticities = fitElasticities(db)
  cache.set(db, { version, elasticities })
  elasticities.catch(() => cache.delete(db))
  return elasticities
}

/** The date estimates refer to: today, or the newest sale when the data is older than that. */
export async function marketAsOf(db: Queryable, now: Date): Promise<string> {
  const today = now.toISOString().slice(0, 10)
  const [row] = await db.query<{ latest: string | null }>('select max(observed_at)::text as latest from comparables')
  return row?.latest && row.latest < today ? row.latest : today
}

function weightedQuantile(values: { v: number; w: number }[], q: number): number {
  const sorted = [...values].sort((a, b) => a.v - b.v)
  const total = sorted.reduce((s, x) => s + x.w, 0)
  let acc = 0
  for (const x of sorted) {
    acc += x.w
    if (acc >= q * total) return x.v
  }
  return sorted[sorted.length - 1]?.v ?? Number.NaN
}

export type MarketResult = { estimate: NonNullable<ValuationData['market_estimate']>; comparables: ValuationData['comparables'] }

export async function estimateMarket(
  db: Queryable,
  target: MarketFacts,
  opts: { asOf: string; elasticities: Elasticities; excludeIds?: string[] },
): Promise<MarketResult | null> {
  const from = new Date(Date.parse(opts.asOf) - WINDOW_MONTHS * 30.44 * DAY_MS).toISOString().slice(0, 10)
  let sales: Sale[] = []
  let radius = RADII_M[0] as number
  for (const r of RADII_M) {
    radius = r
    const lngDeg = r / (111_320 * Math.max(Math.cos((target.lat * Math.PI) / 180), 0.05))
    sales = await db.query<Sale>(
      `with pt as (select ST_SetSRID(ST_MakePoint($2::float8, $1::float8), 4326) as g)
       select c.id::text as id, ST_Y(c.geom)::float8 as lat, ST_X(c.geom)::float8 as lng, c.observed_at::text as date,
         c.price_vnd::float8 as price_vnd, c.area_m2::float8 as area_m2, c.frontage_m::float8 as frontage_m,
         c.alley_width_m::float8 as alley_width_m, c.floors::int as floors, ${SALE_VT1_SQL} as vt1,
         ST_Distance(c.geom::geography, pt.g::geography)::float8 as distance_m
       from comparables c, pt
       where c.geom && ST_Expand(pt.g, $3::float8) and ST_DWithin(c.geom::geography, pt.g::geography, $4::float8)
         and c.observed_at between $5::date and $6::date and c.area_m2 > 0 and c.price_vnd > 0
         and not (c.id = any($7::bigint[]))
       order by distance_m, c.id limit ${MAX_SALES}`,
      [target.lat, target.lng, lngDeg, r, from, opts.asOf, opts.excludeIds ?? []],
    )
    if (sales.length >= MIN_SALES) break
  }
  if (sales.length === 0) return null

  const b = opts.elasticities
  const t = features(target, 0)
  const adjusted = sales.map((s) => {
    const age = monthsBetween(s.date, opts.asOf)
    const f = features(s, -age)
    let logP = Math.log(s.price_vnd / s.area_m2)
    for (const name of FEATURES) {
      const tv = t[name]
      const sv = f[name]
      if (tv !== null && sv !== null) logP += b[name] * (tv - sv)
    }
    // Nearer and newer sales say more about this parcel today.
    const w = (1 / (1 + (s.distance_m / 200) ** 2)) * 0.5 ** (age / 12)
    return { v: logP, w }
  })
  const mid = weightedQuantile(adjusted, 0.5)
  // A little wider than the 10th–90th percentiles: the median itself is uncertain, and the range should
  // hold the true price at least four times in five.
  const lo = weightedQuantile(adjusted, 0.06)
  const hi = weightedQuantile(adjusted, 0.94)
  const spread = (weightedQuantile(adjusted, 0.75) - weightedQuantile(adjusted, 0.25)) / 1.349
  const countScore = Math.min(1, sales.length / 20)
  const spreadScore = Math.min(1, Math.max(0.1, 1 - (spread - 0.08) / 0.4))
  const radiusScore = radius <= 300 ? 1 : radius <= 600 ? 0.9 : radius <= 1200 ? 0.75 : 0.6
  const perM2 = Math.exp(mid)
  const million = (v: number) => Math.round(v / 1e6) * 1e6
  const area = target.area_m2
  return {
    estimate: {
      low_vnd: million(Math.exp(lo) * area),
      mid_vnd: million(perM2 * area),
      high_vnd: million(Math.exp(hi) * area),
      vnd_per_m2: Math.round(perM2 / 1000) * 1000,
      confidence: Math.round(countScore * spreadScore * radiusScore * 100) / 100,
      method:
        `Trung vị có trọng số của ${sales.length} giao dịch trong bán kính ${radius.toLocaleString('vi-VN')} m, ${WINDOW_MONTHS} tháng gần nhất, ` +
        'đã điều chỉnh theo diện tích, mặt tiền, hẻm, số tầng, thời gian và giá đất nhà nước của tuyến đường.',
      as_of: opts.asOf,
    },
    comparables: sales.map((s) => ({
      id: s.id,
      lat: s.lat,
      lng: s.lng,
      date: s.date,
      price_vnd: s.price_vnd,
      vnd_per_m2: Math.round(s.price_vnd / s.area_m2),
      area_m2: s.area_m2,
      distance_m: Math.round(s.distance_m * 10) / 10,
    })),
  }
}
