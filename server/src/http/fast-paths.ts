import type { latLngQuery } from '#core/contract/lookups.ts'
import type { FastPath } from './validate.ts'

/**
 * `latLngQuery` for the query every map tap sends: `lat` and `lng` that are numbers in range once
 * coerced (the schema's `Number()`), answered without running the schema, which costs more than the
 * rest of the request's validation and routing on /api/planning.
 */
export const fastLatLng: FastPath<typeof latLngQuery> = (query) => {
  if (typeof query.lat !== 'string' || typeof query.lng !== 'string') return undefined
  const lat = Number(query.lat)
  const lng = Number(query.lng)
  if (!(lat >= -90 && lat <= 90 && lng >= -180 && lng <= 180)) return undefined
  return { lat, lng }
}
