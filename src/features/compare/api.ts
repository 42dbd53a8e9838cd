import { compareData, type CompareData } from '#core/contract/plans.ts'
import { api, type ApiResult } from '../../lib/api/index.ts'
import type { CompareSearch } from './compare.ts'

/** The comparison of two plan versions; the screen shows every failure itself (no toast). */
export function fetchComparison(q: CompareSearch, signal?: AbortSignal): Promise<ApiResult<CompareData>> {
  return api.request({ path: '/api/plans/compare', query: { ...q }, data: compareData, signal, toast: 'none' })
}
