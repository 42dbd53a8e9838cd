import {
  parcelsData,
  planningData,
  searchData,
  valuationData,
  type ParcelRef,
  type PlanningData,
  type SearchResult,
  type ValuationBody,
  type ValuationData,
} from '#core/contract/lookups.ts'
import type { ApiClient, ApiResult } from '../../lib/api/client.ts'

/** The calls the valuation screen makes; all go through the app's one API client. */
export function createValuationApi(api: ApiClient) {
  return {
    /** Addresses, streets, wards and "tờ 12 thửa 34" (not counted). The screen shows failures itself. */
    search: (q: string, signal?: AbortSignal): Promise<ApiResult<SearchResult[]>> =>
      api.request({ path: '/api/search', query: { q, limit: 8 }, data: searchData, toast: 'none', signal }),

    /** Where the parcels with this sheet and number are (not counted, so not their facts); NotFound when there is none. */
    parcels: (q: {
      sheet_no: number
      parcel_no: number
      province?: string
      ward?: string
    }): Promise<ApiResult<ParcelRef[]>> =>
      api.request({ path: '/api/parcels', query: q, data: parcelsData, toast: 'none' }),

    /** The counted valuation; nothing found shows the yellow EMPTY_VALUATION toast. */
    valuate: (body: ValuationBody): Promise<ApiResult<ValuationData>> =>
      api.request({
        method: 'POST',
        path: '/api/valuation',
        json: body,
        data: valuationData,
        emptyText: 'EMPTY_VALUATION',
      }),

    /** The counted planning lookup of the same point; its failure is told beside the result, not as a toast. */
    planning: (lat: number, lng: number): Promise<ApiResult<PlanningData>> =>
      api.request({ path: '/api/planning', query: { lat, lng }, data: planningData, toast: 'none', overlay: true }),
  }
}

export type ValuationApi = ReturnType<typeof createValuationApi>
