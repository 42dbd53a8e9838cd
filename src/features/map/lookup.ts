import { api, type ApiResult } from '../../lib/api/index.ts'
import {
  parcelsData,
  place,
  planningData,
  searchData,
  type Parcel,
  type Place,
  type PlanningData,
  type SearchResult,
} from '#core/contract/lookups.ts'
import { deviceStorageTexts } from '#core/messages.ts'
import { store } from '../../lib/store.ts'
import * as history from '../history/index.ts'
import { pushToast } from '../notifications/index.ts'
import type { SheetParcelQuery } from './sheet-parcel.ts'
import type { Point } from '../../lib/map-url.ts'

/**
 * The map's server calls, all through the shell's API client (session, usage counter, toasts, login
 * interruption). Loaded on first use, so the first map paint does not wait for it.
 */

/**
 * The counted planning lookup; NotFound shows the yellow EMPTY_ESTATE toast. A result is kept in the
 * lookup history, so it reopens offline and valuing the same parcel needs no second counted lookup.
 * An unreachable server raises no toast: the map answers from the device and says it is offline.
 */
export async function lookupPlanning(p: Point, signal?: AbortSignal): Promise<ApiResult<PlanningData>> {
  const res = await api.request({
    path: '/api/planning',
    query: { lat: p.lat, lng: p.lng },
    data: planningData,
    emptyText: 'EMPTY_ESTATE',
    signal,
    quietUnreachable: true,
  })
  if (res.ok) {
    const { parcel } = res.data
    const label = parcel
      ? `Tờ ${parcel.sheet_no}, thửa ${parcel.parcel_no}`
      : `Ô quy hoạch ${res.data.zones[0]?.land_use_code ?? ''} (không có thửa đất)`
    // A device without IndexedDB room still shows the result; the history entry is lost, and the person told.
    history
      .add({ kind: 'planning', lat: p.lat, lng: p.lng, label, result: res.data })
      .catch(() => pushToast(store, 'warning', deviceStorageTexts.HISTORY_NOT_SAVED))
  }
  return res
}

/**
 * Addresses, streets and wards as the user types; the list itself says when nothing matched. `near`,
 * the centre of the map when it shows about one ward, puts that ward's streets and addresses first.
 */
export function searchPlaces(
  q: string,
  near: Point | undefined,
  signal?: AbortSignal,
): Promise<ApiResult<SearchResult[]>> {
  const at = near ? { lat: near.lat, lng: near.lng } : {}
  return api.request({ path: '/api/search', query: { q, limit: 8, ...at }, data: searchData, signal, toast: 'none' })
}

/** Parcels by tờ/thửa; NotFound is an empty list, said in the search list rather than a toast. */
export async function findParcels(q: SheetParcelQuery, signal?: AbortSignal): Promise<ApiResult<Parcel[]>> {
  const res = await api.request({ path: '/api/parcels', query: { ...q }, data: parcelsData, signal, toast: 'none' })
  if (!res.ok && res.code === 'NotFound') return { ok: true, data: [], message: res.message }
  return res
}

/** The ward and province at a point, today and before 1 July 2025 (not counted); null outside Việt Nam or when it cannot be told. */
export async function placeAt(p: Point, signal?: AbortSignal): Promise<Place | null> {
  const res = await api.request({
    path: '/api/places/at',
    query: { lat: p.lat, lng: p.lng },
    data: place,
    signal,
    toast: 'none',
  })
  return res.ok ? res.data : null
}
