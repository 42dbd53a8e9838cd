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

export type ImportOptions = {
  file: string
  kind: ImportKind
  /** The file's CRS; when absent, a shapefile's .prj decides, and GeoJSON and CSV are EPSG:4326. */
  crs?: Crs | undefined
  source: string
  /** Date of the data, YYYY-MM-DD. */
  date: string
  name?: string | undefined
  /** Re-importing with the same id replaces that dataset; defaults to `<kind>-<file name>`. */
  datasetId?: string | undefined
  /** field → column (--map). */
  map?: Record<string, string> | undefined
  /** field → one value for every row (--set). */
  set?: Record<string, string> | undefined
  /** The attribute text's encoding (--encoding): utf-8, tcvn3, vni or windows-1258; found from the file when absent. */
  encoding?: string | undefined
  /** The layer of a multi-layer file (GPKG, KML, zip), or the level of a DGN / layer of a DXF (--layer). */
  layer?: string | undefined
  /** The sheet of a workbook (--sheet); every sheet when absent. */
  sheet?: string | undefined
  /**
   * The province the data lies in (--province, any spelling): its VN-2000 meridian is the CRS when the
   * file declares none and --crs is absent, and it fills a province column a row leaves blank.
   */
  province?: string | undefined
  /** Multiplier for prices in the file: 1000 for tables in thousand đ/m². */
  priceUnit?: number | undefined
  batchSize?: number | undefined
}
