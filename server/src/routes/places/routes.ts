import { Hono } from 'hono'
import { latLngQuery } from '#core/contract/lookups.ts'
import { requireUser } from '../../accounts/require-user.ts'
import type { AppEnv, Deps } from '../../deps.ts'
import { ok } from '../../http/envelope.ts'
import { ApiError } from '../../http/errors.ts'
import { fastLatLng } from '../../http/fast-paths.ts'
import { queryOf } from '../../http/validate.ts'
import { placeAt } from '../../places/places-at.ts'

/** `GET /api/places/at`: the ward and province at a point, today and before 1 July 2025 (Bearer, not counted). */
export function placeRoutes(deps: Deps) {
  return new Hono<AppEnv>().use('/at', requireUser(deps)).get('/at', async (c) => {
    const { lat, lng } = queryOf(c, latLngQuery, 'LocationIncorrect', fastLatLng)
    const place = await placeAt(deps.db, lat, lng)
    if (!place) throw new ApiError('NotFound', 'Vị trí này không thuộc đơn vị hành chính nào của Việt Nam.')
    return ok(c, place)
  })
}
