import { z } from 'zod'

/** The map view in the URL, so a view can be shared; a malformed value is a 404, not a guess. */
export const mapSearch = z.object({
  lat: z.number().min(-90).max(90).optional(),
  lng: z.number().min(-180).max(180).optional(),
  z: z.number().min(0).max(22).optional(),
})
export type MapSearch = z.infer<typeof mapSearch>
