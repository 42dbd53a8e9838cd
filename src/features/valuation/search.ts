import { z } from 'zod'

/**
 * `/valuation?lat=&lng=&sheet=&parcel=`: the point picked on the map and, when the map knew it, the
 * parcel's sheet (tờ) and number (thửa). A malformed value is a 404, like the map's own view params.
 */
export const valuationSearch = z.object({
  lat: z.number().min(-90).max(90).optional(),
  lng: z.number().min(-180).max(180).optional(),
  sheet: z.number().int().min(0).max(1_000_000).optional(),
  parcel: z.number().int().min(0).max(10_000_000).optional(),
})
export type ValuationSearch = z.infer<typeof valuationSearch>
