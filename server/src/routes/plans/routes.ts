import { Hono } from 'hono'
import { planCompareQuery } from '#core/contract/plans.ts'
import { requireUser } from '../../accounts/require-user.ts'
import type { AppEnv, Deps } from '../../deps.ts'
import { ok } from '../../http/envelope.ts'
import { queryOf } from '../../http/validate.ts'
import { comparePlanVersions } from '../../planning/plan-compare.ts'

/**
 * Plan versions compared in a parcel or an area (not counted: the zones and reserves it reads are the
 * planning tiles' own, public at /tiles/planning; the lookup that found the parcel was counted).
 */
export function planRoutes(deps: Deps) {
  return new Hono<AppEnv>()
    .use('*', requireUser(deps))
    .get('/compare', async (c) => ok(c, await comparePlanVersions(deps.db, queryOf(c, planCompareQuery))))
}
