import type { ValuationBody, ValuationData, ValuationInput } from '#core/contract/lookups.ts'
import type { Usage } from '#core/contract/envelope.ts'
import type { Queryable } from '../db/index.ts'
import type { Deps } from '../deps.ts'
import { NotFoundError, OutsideDataError } from '../domain-errors.ts'
import { countedQuery } from '../usage/daily-limit.ts'
import {
  elasticitiesAt,
  estimateMarket,
  marketAsOfSql,
  type Elasticities,
  type MarketFacts,
  type MarketResult,
} from './market.ts'
import { PARCEL_AT_SQL, parcelAtParams, toContractParcel, type ParcelRecord } from '../planning/parcels.ts'
import { PLACE_AT_SQL, toPlace, type PlaceRow } from '../places/places-at.ts'
import { COVERED_SQL, DATASET_COLUMNS, meridianOf, toLocation, toSource, type DatasetInfo } from '../planning/source.ts'
import { PRICE_ROW_SQL, statePriceFrom, type PriceRowRecord } from './state-price.ts'

/** Land uses a house price means something for; a road or a canal gets the state price only. */
const MARKET_USES = new Set(['ODT', 'ONT', 'TMD'])

type Body = Pick<ValuationBody, 'lat' | 'lng' | 'area_m2' | 'frontage_m' | 'alley_width_m' | 'floors'>

const num = (x: number) => x.toLocaleString('vi-VN', { maximumFractionDigits: 1 })
const alleyWords = (w: number | null) => ((w ?? 0) > 0 ? `hẻm ${num(w as number)} m` : 'mặt tiền')
// Whole percent, but a small change keeps a decimal so it never reads "−0 %".
const signed = (pct: number) =>
  `${pct > 0 ? '+' : pct < 0 ? '−' : '±'}${Math.abs(pct).toLocaleString('vi-VN', { maximumFractionDigits: Math.abs(pct) < 10 ? 1 : 0 })}\u00a0%`
const capital = (s: string) => s.charAt(0).toUpperCase() + s.slice(1)

/** The typed value against what the parcel's record (or the default) would have given, in words. */
function inputNote(field: ValuationInput['field'], typed: number | null, fallback: number | null): string {
  switch (field) {
    case 'alley_width_m':
      return capital(`${alleyWords(typed)} thay vì ${alleyWords(fallback)} (theo thửa đất)`)
    case 'area_m2':
      return `Diện tích ${num(typed ?? 0)} m² thay vì ${num(fallback ?? 0)} m² (theo thửa đất)`
    case 'frontage_m':
      return fallback === null
        ? `Mặt tiền ngang ${num(typed ?? 0)} m (thửa đất chưa ghi)`
        : `Mặt tiền ngang ${num(typed ?? 0)} m thay vì ${num(fallback)} m (theo thửa đất)`
    case 'floors':
      return `${typed ?? 0} tầng (bỏ trống thì không điều chỉnh theo tầng)`
    case 'vt1':
      return ''
  }
}

/**
 * The facts the estimate used and where each came from; for each typed one, how much it moved the
 * estimate against the parcel's own value (same sales, only that fact changed back).
 */
export function describeInputs(
  body: Body,
  parcel: ParcelRecord,
  target: MarketFacts,
  market: MarketResult | null,
): ValuationInput[] {
  const fields: {
    field: ValuationInput['field']
    typed: number | undefined
    fallback: number | null
    from: 'parcel' | 'default'
  }[] = [
    { field: 'area_m2', typed: body.area_m2, fallback: parcel.area_m2, from: 'parcel' },
    { field: 'frontage_m', typed: body.frontage_m, fallback: parcel.frontage_m, from: 'parcel' },
    { field: 'alley_width_m', typed: body.alley_width_m, fallback: parcel.alley_width_m ?? 0, from: 'parcel' },
    { field: 'floors', typed: body.floors, fallback: null, from: 'default' },
  ]
  const mid = market ? market.reprice(target) * target.area_m2 : null
  const out: ValuationInput[] = fields.map(({ field, typed, fallback, from }) => {
    if (typed === undefined) return { field, value: fallback, from }
    const input: ValuationInput = { field, value: typed, from: 'typed' }
    const same = field === 'alley_width_m' ? (typed > 0 ? typed : 0) === (fallback ?? 0) : typed === fallback
    if (mid === null || !market || same) return input
    const alt: MarketFacts = { ...target, [field]: fallback }
    const effect = Math.round((mid / (market.reprice(alt) * alt.area_m2) - 1) * 1000) / 10
    return { ...input, effect_pct: effect, note: `${inputNote(field, typed, fallback)}: ${signed(effect)}` }
  })
  out.push({ field: 'vt1', value: target.vt1, from: 'parcel' })
  return out
}

/**
 * Everything a valuation reads besides the sales, as one row from one statement: coverage, the parcel
 * at the point, the date estimates refer to ($5 when given, else today $4 or the newest sale), the
 * parcel's price-table row for that year with its province's rule, its dataset and the data version
 * (which keys the fitted elasticities). `found`: covered and a parcel is there. Parameters:
 * PARCEL_AT_SQL's, then $4 today, $5 the date to value as of or null.
 */
const VALUATION_SQL = `with parcel as (${PARCEL_AT_SQL}),
  asof as (select coalesce($5::date, ${marketAsOfSql('$4')}) as d),
  a as (select exists (${COVERED_SQL}) as covered,
    (select row_to_json(p) from parcel p) as parcel,
    (select d::text from asof) as as_of,
    (select row_to_json(r) from (${PRICE_ROW_SQL('(select id::bigint from parcel)', '(select extract(year from d)::int from asof)')}) r) as price_row,
    (select rule from price_position_rules where province = (select province from parcel)) as price_rule,
    (select row_to_json(d) from (select ${DATASET_COLUMNS} from datasets where id = (select dataset_id from parcel)) d) as dataset,
    (select version::float8 from data_version) as data_version,
    (select row_to_json(pl) from (${PLACE_AT_SQL}) pl) as place)
  select a.*, a.covered and a.parcel is not null as found from a`

type ValuationRow = {
  found: boolean
  covered: boolean
  parcel: ParcelRecord | null
  as_of: string
  price_row: PriceRowRecord | null
  price_rule: unknown
  dataset: DatasetInfo | null
  data_version: number | null
  place: PlaceRow | null
}
type Found = ValuationRow & { parcel: ParcelRecord; dataset: DatasetInfo }

/** Outside every dataset → LocationIncorrect; inside but no parcel within 2 m → NotFound. */
function requireFound(row: ValuationRow): Found {
  if (!row.covered) throw new OutsideDataError('Vị trí nằm ngoài vùng có dữ liệu.')
  if (!row.parcel) throw new NotFoundError('Không tìm thấy thửa đất tại vị trí này.')
  if (!row.dataset) throw new Error(`dataset ${row.parcel.dataset_id} vanished during a lookup`)
  return row as Found
}

/**
 * State price and market estimate for the parcel of `row`. Facts given in the request (area, frontage,
 * alley width, floors) replace the parcel's own.
 */
async function valuationAnswer(
  db: Queryable,
  row: Found,
  body: Body,
  opts: { elasticities: Elasticities; excludeIds?: string[] },
): Promise<ValuationData> {
  const { parcel, dataset } = row
  const alley = body.alley_width_m ?? parcel.alley_width_m ?? 0
  // Declared to front the street: no depth into an alley.
  const distance = alley > 0 ? (parcel.distance_to_street_m ?? 0) : 0
  const state = statePriceFrom(row.price_row, row.price_rule, { alley_width_m: alley, distance_m: distance })
  const marketable = parcel.land_use.some((u) => MARKET_USES.has(u.code))
  const target: MarketFacts = {
    lat: body.lat,
    lng: body.lng,
    parcel_id: parcel.id,
    street_id: parcel.street_id,
    area_m2: body.area_m2 ?? parcel.area_m2,
    frontage_m: body.frontage_m ?? parcel.frontage_m,
    alley_width_m: alley,
    floors: body.floors ?? null,
    vt1: state.vt1,
  }
  const market = marketable ? await estimateMarket(db, target, { ...opts, asOf: row.as_of }) : null
  return {
    parcel: toContractParcel(parcel),
    state_price: state.state,
    market_estimate: market ? { ...market.estimate, inputs: describeInputs(body, parcel, target, market) } : null,
    comparables: market?.comparables ?? [],
    location: toLocation(body.lat, body.lng, meridianOf(dataset.crs, body.lng, parcel.province)),
    source: toSource(dataset),
    place: toPlace(row.place),
  }
}

/** The valuation of the parcel at the point as of `opts.asOf`, uncounted (ratio studies, tests): two statements. */
export async function valuate(
  db: Queryable,
  body: Body,
  opts: { asOf: string; elasticities: Elasticities; excludeIds?: string[] },
): Promise<ValuationData> {
  const [row] = await db.query<ValuationRow>(
    VALUATION_SQL,
    [...parcelAtParams(body.lat, body.lng), opts.asOf, opts.asOf],
    { prepare: 'valuation' },
  )
  if (!row) throw new Error('the valuation statement answered no row')
  return valuationAnswer(db, requireFound(row), body, opts)
}

/**
 * A valuation counted against the caller's daily limit, as of today (or the newest sale): the counted
 * statement (see countedQuery), then the sales. Should the second fail, the lookup is given back.
 */
export async function countedValuation(
  deps: Pick<Deps, 'db' | 'config' | 'now' | 'logger'>,
  userId: string,
  body: Body,
): Promise<{ data: ValuationData; usage: Usage }> {
  const today = deps.now().toISOString().slice(0, 10)
  const { row, usage, refund } = await countedQuery<ValuationRow>(
    deps,
    userId,
    VALUATION_SQL,
    [...parcelAtParams(body.lat, body.lng), today, null],
    'valuation',
  )
  const found = requireFound(row)
  if (!usage) throw new Error('a found valuation was not counted')
  try {
    const elasticities = await elasticitiesAt(deps.db, row.data_version ?? 0)
    return { data: await valuationAnswer(deps.db, found, body, { elasticities }), usage }
  } catch (err) {
    await refund()
    throw err
  }
}
