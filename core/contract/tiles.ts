import { z } from 'zod/mini'

/** The vector tile sets served at `/tiles/{layer}/{z}/{x}/{y}.pbf` and `/tiles/{layer}.json`. */
export const tileLayerIds = ['basemap', 'planning', 'parcels'] as const
export type TileLayerId = (typeof tileLayerIds)[number]

export const vectorLayer = z.object({
  id: z.string(),
  description: z.string(),
  minzoom: z.int(),
  maxzoom: z.int(),
  /** Property name → what it holds. */
  fields: z.record(z.string(), z.string()),
})

/** TileJSON 3.0.0, plus `data_date` (ISO date of the newest data in the set, null when there is none). */
export const tileJson = z.object({
  tilejson: z.literal('3.0.0'),
  name: z.string(),
  description: z.string(),
  attribution: z.string(),
  scheme: z.literal('xyz'),
  tiles: z.array(z.string()).check(z.minLength(1)),
  minzoom: z.int(),
  maxzoom: z.int(),
  bounds: z.tuple([z.number(), z.number(), z.number(), z.number()]),
  center: z.tuple([z.number(), z.number(), z.number()]),
  vector_layers: z.array(vectorLayer),
  data_date: z.nullable(z.string()),
  /** Parcels only: where the data is, as wards with their province ("Phường Gia An, Thành phố Hồ Chí Minh"), a few at most: the demo's and those imported parcels name. */
  coverage: z.optional(z.array(z.string())),
  /**
   * Basemap only, when it draws today's administrative boundaries (admin_boundaries, admin_labels): the
   * boundary set's name, source and date, for the legend.
   */
  boundaries: z.optional(z.object({ name: z.string(), source: z.string(), data_date: z.string() })),
  /**
   * Basemap only: the bounds of its own data (the demo, imported streets or an OpenStreetMap extract),
   * without the national boundaries that make `bounds` the whole country; absent when it has none.
   */
  data_bounds: z.optional(z.tuple([z.number(), z.number(), z.number(), z.number()])),
  /** Basemap only, when the server has TILE_URL: a raster basemap (XYZ template, 256-px tiles) to draw under the vector layers. */
  raster: z.optional(
    z.object({ tiles: z.array(z.string()).check(z.minLength(1)), attribution: z.string(), maxzoom: z.int() }),
  ),
})
export type TileJson = z.infer<typeof tileJson>

/** One raster planning overlay in `/tiles/overlays.json`: TileJSON 3.0.0 plus the plan it shows. */
export const overlayTileJson = z.object({
  tilejson: z.literal('3.0.0'),
  id: z.string(),
  name: z.string(),
  description: z.string(),
  attribution: z.string(),
  scheme: z.literal('xyz'),
  /** PNG tiles; the same path with .webp gives WebP. */
  tiles: z.array(z.string()).check(z.minLength(1)),
  minzoom: z.int(),
  maxzoom: z.int(),
  bounds: z.tuple([z.number(), z.number(), z.number(), z.number()]),
  center: z.tuple([z.number(), z.number(), z.number()]),
  plan_level: z.string(),
  decision_no: z.string(),
  approved_at: z.string(),
})
export type OverlayTileJson = z.infer<typeof overlayTileJson>
export const overlayList = z.array(overlayTileJson)
