import { Hono } from 'hono'
import { planCompareQuery } from '#core/contract/plans.ts'
import { currentUserId, requireUser } from '../../accounts/require-user.ts'
import type { AppEnv, Deps } from '../../deps.ts'
import { ok } from '../../http/envelope.ts'
import { queryOf } from '../../http/validate.ts'
import { comparePlanVersions } from '../../planning/plan-compare.ts'
import { countedWork } from '../../usage/daily-limit.ts'

/**
 * Plan versions compared in a parcel or an area, counted as one lookup: it answers the parcel, the plans
 * there and their zones' values, which a lookup counts for.
 */
export function planRoutes(deps: Deps) {
  return new Hono<AppEnv>().use('*', requireUser(deps)).get('/compare', async (c) => {
    const query = queryOf(c, planCompareQuery)
    const { data, usage } = await countedWork(deps, currentUserId(c), () => comparePlanVersions(deps.db, query))
    return ok(c, data, { usage })
  })
}
