import type { Geometry } from 'geojson'

export const importKinds = [
  'parcels',
  'planning',
  'roads',
  'prices',
  'price-coefficients',
  'residual-costs',
  'comparables',
  'areas',
] as const
export type ImportKind = (typeof importKinds)[number]

export type FileFormat =
  'geojson' | 'shapefile' | 'csv' | 'dgn' | 'mapinfo' | 'dxf' | 'gpkg' | 'kml' | 'zip' | 'xlsx' | 'xls'

/** Formats with geometry that GDAL reads (besides GeoJSON and Shapefile, which have their own streaming readers). */
export const gdalVectorFormats = [
  'dgn',
  'mapinfo',
  'dxf',
  'gpkg',
  'kml',
  'zip',
] as const satisfies readonly FileFormat[]

/**
 * WGS84 longitude/latitude, or a VN-2000 Transverse Mercator grid on one central meridian: the
 * provincial TM-3 grid (k 0.9999) unless `scale` says otherwise (0.9996 for VN-2000 / UTM), shifted to
 * WGS84 by the official 7 parameters unless the file declares its own (`towgs84`, 3 or 7 numbers).
 */
export type Crs = { kind: 'wgs84' } | { kind: 'vn2000'; meridian: number; scale?: number; towgs84?: readonly number[] }

/** One feature or CSV row as read, before mapping: `n` is the feature number or the line number. */
export type SourceRecord = {
  n: number
  props: Record<string, unknown>
  geometry: Geometry | null
  /** The workbook sheet the row is on; `n` is then its row number there. */
  sheet?: string
  /** A workbook sheet's lines above its table (title, decision, unit), for kinds that read them. */
  heading?: string[]
  /** Set by a reader when the record itself is malformed (e.g. wrong number of CSV columns). */
  error?: string
}

export type Rejection = { n: number; reason: string; sheet?: string }
