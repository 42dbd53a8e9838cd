import { Hono } from 'hono'
import { latLngQuery, place } from '#core/contract/lookups.ts'
import { requireUser } from '../../accounts/require-user.ts'
import type { AppEnv, Deps } from '../../deps.ts'
import { ok } from '../../http/envelope.ts'
import { ApiError } from '../../http/errors.ts'
import { fastLatLng } from '../../http/fast-paths.ts'
import { query } from '../../http/validate.ts'
import { endpoint } from '../../openapi/describe.ts'
import { placeAt } from '../../places/places-at.ts'

/** `GET /api/places/at`: the ward and province at a point, today and before 1 July 2025 (Bearer, not counted). */
export function placeRoutes(deps: Deps) {
  return new Hono<AppEnv>().use('/at', requireUser(deps)).get(
    '/at',
    endpoint({
      summary: 'Phường/xã và tỉnh/thành phố tại một điểm, hôm nay và trước 1/7/2025 (không tính lượt)',
      tag: 'lookups',
      bearer: true,
      answer: { envelope: place },
      codes: ['LocationIncorrect', 'NotFound', 'Unauthorized'],
    }),
    query(latLngQuery, 'LocationIncorrect', fastLatLng),
    async (c) => {
      const { lat, lng } = c.req.valid('query')
      const found = await placeAt(deps.db, lat, lng)
      if (!found) throw new ApiError('NotFound', 'Vị trí này không thuộc đơn vị hành chính nào của Việt Nam.')
      return ok(c, found)
    },
  )
}
