import { z } from 'zod/mini'

/**
 * `/valuation?lat=&lng=&sheet=&parcel=`: the point picked on the map and, when the map knew them, the
 * parcel's sheet (tờ) and number (thửa). A map link may also name the parcel by its id in `parcel`
 * without a sheet; then only the point is used. Malformed coordinates are a 404, like the map's own
 * view params.
 */
export const valuationSearch = z.object({
  lat: z.optional(z.number().check(z.gte(-90), z.lte(90))),
  lng: z.optional(z.number().check(z.gte(-180), z.lte(180))),
  sheet: z.optional(z.int().check(z.gte(0), z.lte(1_000_000))),
  parcel: z.optional(
    z.union([z.int().check(z.gte(0), z.lte(10_000_000)), z.string().check(z.trim(), z.minLength(1), z.maxLength(64))]),
  ),
})
export type ValuationSearch = z.infer<typeof valuationSearch>

/** The tờ/thửa pair when the link carries both as numbers. */
export function sheetAndParcel(search: ValuationSearch): { sheet: number; parcel: number } | null {
  return search.sheet !== undefined && typeof search.parcel === 'number'
    ? { sheet: search.sheet, parcel: search.parcel }
    : null
}
