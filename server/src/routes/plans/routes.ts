import { Hono } from 'hono'
import { compareData, planCompareQuery } from '#core/contract/plans.ts'
import { currentUserId, requireUser } from '../../accounts/require-user.ts'
import type { AppEnv, Deps } from '../../deps.ts'
import { ok } from '../../http/envelope.ts'
import { query } from '../../http/validate.ts'
import { endpoint } from '../../openapi/describe.ts'
import { comparePlanVersions } from '../../planning/plan-compare.ts'
import { countedWork } from '../../usage/daily-limit.ts'

/**
 * Plan versions compared in a parcel or an area, counted as one lookup: it answers the parcel, the plans
 * there and their zones' values, which a lookup counts for.
 */
export function planRoutes(deps: Deps) {
  return new Hono<AppEnv>().use('*', requireUser(deps)).get(
    '/compare',
    endpoint({
      summary: 'So sánh hai phiên bản đồ án quy hoạch trong một thửa (lat, lng) hoặc một khu vực (bbox) (tính lượt)',
      tag: 'lookups',
      bearer: true,
      counted: true,
      answer: { envelope: compareData },
      codes: ['BadRequest', 'Unauthorized', 'NotFound', 'MaxUsage'],
    }),
    query(planCompareQuery),
    async (c) => {
      const q = c.req.valid('query')
      const { data, usage } = await countedWork(deps, currentUserId(c), () => comparePlanVersions(deps.db, q))
      return ok(c, data, { usage })
    },
  )
}
