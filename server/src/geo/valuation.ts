import type { ValuationBody, ValuationData } from '#core/contract/lookups.ts'
import type { Queryable } from '../db/index.ts'
import { estimateMarket, type Elasticities } from './market.ts'
import { toContractParcel } from './parcels.ts'
import { findParcelOrThrow } from './planning.ts'
import { datasetInfo, meridianOf, toLocation, toSource } from './source.ts'
import { statePrice } from './state-price.ts'

/** Land uses a house price means something for; a road or a canal gets the state price only. */
const MARKET_USES = new Set(['ODT', 'ONT', 'TMD'])

/**
 * State price and market estimate for the parcel at the point. Facts given in the request (area,
 * frontage, alley width, floors) replace the parcel's own.
 */
export async function valuate(
  db: Queryable,
  body: Pick<ValuationBody, 'lat' | 'lng' | 'area_m2' | 'frontage_m' | 'alley_width_m' | 'floors'>,
  opts: { asOf: string; elasticities: Elasticities; excludeIds?: string[] },
): Promise<ValuationData> {
  const parcel = await findParcelOrThrow(db, body.lat, body.lng)
  const alley = body.alley_width_m ?? parcel.alley_width_m ?? 0
  // Declared to front the street: no depth into an alley.
  const distance = alley > 0 ? (parcel.distance_to_street_m ?? 0) : 0
  const year = Number(opts.asOf.slice(0, 4))
  const [state, dataset] = await Promise.all([
    statePrice(db, parcel, { alley_width_m: alley, distance_m: distance }, year),
    datasetInfo(db, parcel.dataset_id),
  ])
  const marketable = parcel.land_use.some((u) => MARKET_USES.has(u.code))
  const market = marketable
    ? await estimateMarket(
        db,
        {
          lat: body.lat,
          lng: body.lng,
          area_m2: body.area_m2 ?? parcel.area_m2,
          frontage_m: body.frontage_m ?? parcel.frontage_m,
          alley_width_m: alley,
          floors: body.floors ?? null,
          vt1: state.vt1,
        },
        opts,
      )
    : null
  return {
    parcel: toContractParcel(parcel),
    state_price: state.state,
    market_estimate: market?.estimate ?? null,
    comparables: market?.comparables ?? [],
    location: toLocation(body.lat, body.lng, meridianOf(dataset.crs, body.lng, parcel.province)),
    source: toSource(dataset),
  }
}
