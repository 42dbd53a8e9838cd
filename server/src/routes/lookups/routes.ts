import { Hono } from 'hono'
import {
  latLngQuery,
  parcelsData,
  parcelsQuery,
  planningData,
  searchData,
  searchQuery,
  valuationBody,
  valuationData,
} from '#core/contract/lookups.ts'
import { currentUserId, requireUser } from '../../accounts/require-user.ts'
import { readsOf, type AppEnv, type Deps } from '../../deps.ts'
import { ok } from '../../http/envelope.ts'
import { ApiError } from '../../http/errors.ts'
import { fastLatLng, fastSearch } from '../../http/fast-paths.ts'
import { json, query } from '../../http/validate.ts'
import { endpoint } from '../../openapi/describe.ts'
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
    .get(
      '/planning',
      endpoint({
        summary: 'Tra cứu quy hoạch tại một điểm (tính lượt)',
        tag: 'lookups',
        bearer: true,
        counted: true,
        answer: { envelope: planningData },
        codes: ['LocationIncorrect', 'Unauthorized', 'NotFound', 'MaxUsage'],
      }),
      query(latLngQuery, 'LocationIncorrect', fastLatLng),
      async (c) => {
        const { lat, lng } = c.req.valid('query')
        const { data, usage } = await countedPlanningLookup(deps, currentUserId(c), lat, lng)
        return ok(c, data, { usage })
      },
    )
    .post(
      '/valuation',
      endpoint({
        summary: 'Định giá thửa đất tại một điểm (tính lượt)',
        tag: 'lookups',
        bearer: true,
        counted: true,
        answer: { envelope: valuationData },
        codes: ['BadRequest', 'Unauthorized', 'Forbidden', 'NotFound', 'MaxUsage'],
      }),
      json(valuationBody),
      async (c) => {
        const body = c.req.valid('json')
        const userId = currentUserId(c)
        await requireOwnImages(db, userId, body.image_ids ?? [])
        const { data, usage } = await countedValuation(deps, userId, body)
        return ok(c, data, {
          usage,
          message: data.market_estimate ? undefined : 'Chưa đủ dữ liệu để ước tính giá thị trường cho thửa này.',
        })
      },
    )
    .get(
      '/search',
      endpoint({
        summary: 'Tìm địa chỉ, đường, phường, tờ/thửa',
        tag: 'lookups',
        bearer: true,
        answer: { envelope: searchData },
        codes: ['BadRequest', 'Unauthorized'],
      }),
      query(searchQuery, 'BadRequest', fastSearch),
      async (c) => {
        const { q, limit, lat, lng } = c.req.valid('query')
        const near = lat !== undefined && lng !== undefined ? { lat, lng } : undefined
        return ok(c, await searchPlaces(readsOf(deps), q, limit, near))
      },
    )
    .get(
      '/parcels',
      endpoint({
        summary: 'Vị trí các thửa đất theo số tờ, số thửa (không tính lượt; thông tin thửa có qua tra cứu tại điểm đó)',
        tag: 'lookups',
        bearer: true,
        answer: { envelope: parcelsData },
        codes: ['BadRequest', 'Unauthorized', 'NotFound'],
      }),
      query(parcelsQuery),
      async (c) => {
        const parcels = await parcelsBySheet(db, c.req.valid('query'))
        if (parcels.length === 0) throw new ApiError('NotFound', 'Không có thửa đất nào với số tờ, số thửa này.')
        return ok(c, parcels)
      },
    )
}
