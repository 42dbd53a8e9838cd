import { z } from 'zod'

/**
 * `/valuation?lat=&lng=&sheet=&parcel=`: the point picked on the map and, when the map knew them, the
 * parcel's sheet (tờ) and number (thửa). A map link may also name the parcel by its id in `parcel`
 * without a sheet; then only the point is used. Malformed coordinates are a 404, like the map's own
 * view params.
 */
export const valuationSearch = z.object({
  lat: z.number().min(-90).max(90).optional(),
  lng: z.number().min(-180).max(180).optional(),
  sheet: z.number().int().min(0).max(1_000_000).optional(),
  parcel: z.union([z.number().int().min(0).max(10_000_000), z.string().trim().min(1).max(64)]).optional(),
})
export type ValuationSearch = z.infer<typeof valuationSearch>

/** The tờ/thửa pair when the link carries both as numbers. */
export function sheetAndParcel(search: ValuationSearch): { sheet: number; parcel: number } | null {
  return search.sheet !== undefined && typeof search.parcel === 'number' ? { sheet: search.sheet, parcel: search.parcel } : null
}
