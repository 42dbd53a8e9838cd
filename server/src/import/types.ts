import type { Geometry } from 'geojson'

export const importKinds = ['parcels', 'planning', 'roads', 'prices', 'comparables'] as const
export type ImportKind = (typeof importKinds)[number]

export type FileFormat = 'geojson' | 'shapefile' | 'csv' | 'dgn' | 'mapinfo' | 'dxf' | 'gpkg' | 'kml' | 'zip' | 'xlsx'

/** Formats with geometry that GDAL reads (besides GeoJSON and Shapefile, which have their own streaming readers). */
export const gdalVectorFormats = ['dgn', 'mapinfo', 'dxf', 'gpkg', 'kml', 'zip'] as const satisfies readonly FileFormat[]

/** WGS84 longitude/latitude, or a VN-2000 Transverse Mercator grid on one central meridian. */
export type Crs = { kind: 'wgs84' } | { kind: 'vn2000'; meridian: number }

/** One feature or CSV row as read, before mapping: `n` is the feature number or the line number. */
export type SourceRecord = {
  n: number
  props: Record<string, unknown>
  geometry: Geometry | null
  /** Set by a reader when the record itself is malformed (e.g. wrong number of CSV columns). */
  error?: string
}

export type Rejection = { n: number; reason: string }
