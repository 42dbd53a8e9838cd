import { Hono } from 'hono'
import { compareData, planCompareQuery } from '#core/contract/plans.ts'
import { requireUser } from '../../accounts/require-user.ts'
import type { AppEnv, Deps } from '../../deps.ts'
import { ok } from '../../http/envelope.ts'
import { query } from '../../http/validate.ts'
import { endpoint } from '../../openapi/describe.ts'
import { comparePlanVersions } from '../../planning/plan-compare.ts'

/**
 * Plan versions compared in a parcel or an area (not counted: the zones and reserves it reads are the
 * planning tiles' own, public at /tiles/planning; the lookup that found the parcel was counted).
 */
export function planRoutes(deps: Deps) {
  return new Hono<AppEnv>().use('*', requireUser(deps)).get(
    '/compare',
    endpoint({
      summary: 'So sánh hai phiên bản đồ án quy hoạch trong một thửa (lat, lng) hoặc một khu vực (bbox)',
      tag: 'lookups',
      bearer: true,
      answer: { envelope: compareData },
      codes: ['BadRequest', 'Unauthorized', 'NotFound'],
    }),
    query(planCompareQuery),
    async (c) => ok(c, await comparePlanVersions(deps.db, c.req.valid('query'))),
  )
}
