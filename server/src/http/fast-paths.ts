import type { latLngQuery, searchQuery } from '#core/contract/lookups.ts'
import type { FastPath } from './validate.ts'

/**
 * `latLngQuery` for the query every map tap sends: `lat` and `lng` that are numbers in range once
 * coerced (the schema's `Number()`), answered without running the schema.
 */
export const fastLatLng: FastPath<typeof latLngQuery> = (query) => {
  if (typeof query.lat !== 'string' || typeof query.lng !== 'string') return undefined
  const lat = Number(query.lat)
  const lng = Number(query.lng)
  if (!(lat >= -90 && lat <= 90 && lng >= -180 && lng <= 180)) return undefined
  return { lat, lng }
}

/**
 * `searchQuery` for what the search field sends as people type: a query of 1–200 characters once
 * trimmed, a whole `limit` from 1 to 50 (10 when absent), and the map's centre or none.
 */
export const fastSearch: FastPath<typeof searchQuery> = (query) => {
  if (typeof query.q !== 'string') return undefined
  const q = query.q.trim()
  if (q.length < 1 || q.length > 200) return undefined
  const limit = query.limit === undefined ? 10 : Number(query.limit)
  if (!(Number.isInteger(limit) && limit >= 1 && limit <= 50)) return undefined
  if (query.lat === undefined && query.lng === undefined) return { q, limit }
  const at = fastLatLng(query)
  return at && { q, limit, ...at }
}
