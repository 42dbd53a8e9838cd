import type { ValuationBody, ValuationData, ValuationInput } from '#core/contract/lookups.ts'
import type { Queryable } from '../db/index.ts'
import { estimateMarket, type Elasticities, type MarketFacts, type MarketResult } from './market.ts'
import { toContractParcel, type ParcelRecord } from './parcels.ts'
import { findParcelOrThrow } from './planning.ts'
import { datasetInfo, meridianOf, toLocation, toSource } from './source.ts'
import { statePrice } from './state-price.ts'

/** Land uses a house price means something for; a road or a canal gets the state price only. */
const MARKET_USES = new Set(['ODT', 'ONT', 'TMD'])

type Body = Pick<ValuationBody, 'lat' | 'lng' | 'area_m2' | 'frontage_m' | 'alley_width_m' | 'floors'>

const num = (x: number) => x.toLocaleString('vi-VN', { maximumFractionDigits: 1 })
const alleyWords = (w: number | null) => ((w ?? 0) > 0 ? `hẻm ${num(w as number)} m` : 'mặt tiền')
// Whole percent, but a small change keeps a decimal so it never reads "−0 %".
const signed = (pct: number) => `${pct > 0 ? '+' : pct < 0 ? '−' : '±'}${Math.abs(pct).toLocaleString('vi-VN', { maximumFractionDigits: Math.abs(pct) < 10 ? 1 : 0 })}\u00a0%`
const capital = (s: string) => s.charAt(0).toUpperCase() + s.slice(1)

/** The typed value against what the parcel's record (or the default) would have given, in words. */
function inputNote(field: ValuationInput['field'], typed: number | null, fallback: number | null): string {
  switch (field) {
    case 'alley_width_m':
      return capital(`${alleyWords(typed)} thay vì ${alleyWords(fallback)} (theo thửa đất)`)
    case 'area_m2':
      return `Diện tích ${num(typed ?? 0)} m² thay vì ${num(fallback ?? 0)} m² (theo thửa đất)`
    case 'frontage_m':
      return fallback === null ? `Mặt tiền ngang ${num(typed ?? 0)} m (thửa đất chưa ghi)` : `Mặt tiền ngang ${num(typed ?? 0)} m thay vì ${num(fallback)} m (theo thửa đất)`
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
export function describeInputs(body: Body, parcel: ParcelRecord, target: MarketFacts, market: MarketResult | null): ValuationInput[] {
  const fields: { field: ValuationInput['field']; typed: number | undefined; fallback: number | null; from: 'parcel' | 'default' }[] = [
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
 * State price and market estimate for the parcel at the point. Facts given in the request (area,
 * frontage, alley width, floors) replace the parcel's own.
 */
export async function valuate(db: Queryable, body: Body, opts: { asOf: string; elasticities: Elasticities; excludeIds?: string[] }): Promise<ValuationData> {
  const parcel = await findParcelOrThrow(db, body.lat, body.lng)
  const alley = body.alley_width_m ?? parcel.alley_width_m ?? 0
  // Declared to front the street: no depth into an alley.
  const distance = alley > 0 ? (parcel.distance_to_street_m ?? 0) : 0
  const year = Number(opts.asOf.slice(0, 4))
  const [state, dataset] = await Promise.all([statePrice(db, parcel, { alley_width_m: alley, distance_m: distance }, year), datasetInfo(db, parcel.dataset_id)])
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
  const market = marketable ? await estimateMarket(db, target, opts) : null
  return {
    parcel: toContractParcel(parcel),
    state_price: state.state,
    market_estimate: market ? { ...market.estimate, inputs: describeInputs(body, parcel, target, market) } : null,
    comparables: market?.comparables ?? [],
    location: toLocation(body.lat, body.lng, meridianOf(dataset.crs, body.lng, parcel.province)),
    source: toSource(dataset),
  }
}
