import { Hono } from 'hono'
import { latLngQuery, parcelsQuery, searchQuery, valuationBody } from '#core/contract/lookups.ts'
import { currentUserId, requireUser } from '../../accounts/require-user.ts'
import type { AppEnv, Deps } from '../../deps.ts'
import { ok } from '../../http/envelope.ts'
import { ApiError } from '../../http/errors.ts'
import { fastLatLng, fastSearch } from '../../http/fast-paths.ts'
import { jsonBody, queryOf } from '../../http/validate.ts'
import { parcelsBySheet } from '../../planning/parcels.ts'
import { countedPlanningLookup } from '../../planning/planning.ts'
import { searchPlaces } from '../../search/search.ts'
import { countedValuation } from '../../valuation/valuation.ts'
import { requireOwnImages } from './image-ids.ts'

/** Planning and valuation (counted against the daily limit, each in one statement with its count), search and tờ/thửa lookup (not counted). */
export function lookupRoutes(deps: Deps) {
  const { db } = deps
  return new Hono<AppEnv>()
    .use('/planning', requireUser(deps))
    .use('/valuation', requireUser(deps))
    .use('/search', requireUser(deps))
    .use('/parcels', requireUser(deps))
    .get('/planning', async (c) => {
      const { lat, lng } = queryOf(c, latLngQuery, 'LocationIncorrect', fastLatLng)
      const { data, usage } = await countedPlanningLookup(deps, currentUserId(c), lat, lng)
      return ok(c, data, { usage })
    })
    .post('/valuation', async (c) => {
      const body = await jsonBody(c, valuationBody)
      const userId = currentUserId(c)
      await requireOwnImages(db, userId, body.image_ids ?? [])
      const { data, usage } = await countedValuation(deps, userId, body)
      return ok(c, data, {
        usage,
        message: data.market_estimate ? undefined : 'Chưa đủ dữ liệu để ước tính giá thị trường cho thửa này.',
      })
    })
    .get('/search', async (c) => {
      const { q, limit, lat, lng } = queryOf(c, searchQuery, 'BadRequest', fastSearch)
      return ok(c, await searchPlaces(db, q, limit, lat !== undefined && lng !== undefined ? { lat, lng } : undefined))
    })
    .get('/parcels', async (c) => {
      const query = queryOf(c, parcelsQuery)
      const parcels = await parcelsBySheet(db, query)
      if (parcels.length === 0) throw new ApiError('NotFound', 'Không có thửa đất nào với số tờ, số thửa này.')
      return ok(c, parcels)
    })
}
