import type { Geometry } from 'geojson'
import { loadGdal, type Gdal, type GdalDataset } from './gdal.ts'

export type VectorLayer = {
  name: string
  featureCount: number
  geometryType: string
  /** The layer's CRS as WKT, when the file declares one (a .prj, a GPKG SRS, a TAB's CoordSys). */
  wkt: string | null
  /** [minX, minY, maxX, maxY] as GDAL reports it, when it knows it. */
  extent: [number, number, number, number] | null
}

export type VectorFile = {
  driver: string
  layers: VectorLayer[]
  /**
   * The features of one layer in chunks of `chunk`, coordinates untouched (GDAL reprojects nothing;
   * the importer transforms with its own checked VN-2000 code). `where` is an OGR SQL condition.
   * With `bytes`, text comes as GDAL wrote it, one latin1 character per byte: DGN text and old .dbf
   * files are in legacy Vietnamese encodings that GDAL passes through undecoded.
   */
  features(
    layer: string,
    opts?: { where?: string | undefined; chunk?: number; bytes?: boolean },
  ): AsyncGenerator<{ props: Record<string, unknown>; geometry: Geometry | null }>
  /** Distinct values of one attribute with their counts (DGN levels, DXF layers); `bytes` as for features. */
  countBy(layer: string, field: string, opts?: { bytes?: boolean }): Promise<{ value: string; count: number }[]>
  close(): Promise<void>
}

type OgrInfo = {
  driverShortName?: string
  layers?: {
    name: string
    featureCount?: number
    geometryFields?: { type?: string; extent?: number[]; coordinateSystem?: { wkt?: string } | null }[]
  }[]
}

const quoteIdent = (name: string) => `"${name.replace(/"/g, '""')}"`

let outputs = 0

/** Runs one OGR SQL statement into GeoJSONSeq in GDAL's in-memory output folder and hands back its lines; the file is removed at once. */
async function sqlLines(gdal: Gdal, ds: GdalDataset, sql: string, bytes = false): Promise<string[]> {
  // -a_srs with no reprojection keeps the coordinates as they are in the file (GeoJSONSeq would otherwise go to WGS84).
  const out = await gdal.ogr2ogr(
    ds,
    ['-f', 'GeoJSONSeq', '-a_srs', 'EPSG:4326', '-sql', sql],
    `chunk-${process.pid}-${outputs++}`,
  )
  try {
    const raw = await gdal.getFileBytes(out)
    const text = bytes
      ? Buffer.from(raw.buffer, raw.byteOffset, raw.byteLength).toString('latin1')
      : new TextDecoder().decode(raw)
    return text.split('\n').filter((l) => l.trim() !== '')
  } finally {
    for (const f of out.all) gdal.Module.FS.unlink(f.local)
  }
}

/** Driver open options (`-oo`), and GDAL configuration options set only while the file is opened. */
export type OpenOptions = { openOptions?: string[]; config?: Record<string, string> }

/**
 * Opens a vector file of any format GDAL reads (DGN v7, MapInfo TAB/MIF, DXF, GPKG, KML, Shapefile,
 * GeoJSON, CSV, XLSX), a .zip holding one as sent (a shapefile's or a TAB's parts). Reading goes in
 * chunks through OGR SQL LIMIT/OFFSET, so memory holds one chunk, not the file.
 */
export async function openVector(file: string, opts: OpenOptions = {}): Promise<VectorFile> {
  const gdal = await loadGdal()
  const zip = /\.zip$/i.test(file)
  const config = Object.entries(opts.config ?? {})
  let opened: Awaited<ReturnType<Gdal['open']>>
  try {
    // Opening reads every layer's definition, so configuration set around it is what the driver sees.
    for (const [key, value] of config) gdal.Module.ccall('CPLSetConfigOption', null, ['string', 'string'], [key, value])
    opened = await gdal.open(file, opts.openOptions ?? [], zip ? ['vsizip'] : [])
  } catch (err) {
    throw new Error(describeGdalError(err))
  } finally {
    for (const [key] of config) gdal.Module.ccall('CPLSetConfigOption', null, ['string', 'string'], [key, null])
  }
  const ds = opened.datasets[0]
  if (!ds) throw new Error(describeGdalError(opened.errors[0]))
  const info = (ds.info ?? (await gdal.ogrinfo(ds))) as OgrInfo
  const layers: VectorLayer[] = (info.layers ?? []).map((l) => {
    const g = l.geometryFields?.[0]
    const e = g?.extent
    return {
      name: l.name,
      featureCount: l.featureCount ?? 0,
      geometryType: g?.type ?? 'None',
      wkt: g?.coordinateSystem?.wkt ?? null,
      extent: e && e.length >= 4 ? [e[0]!, e[1]!, e[2]!, e[3]!] : null,
    }
  })
  const dataset = ds
  async function* features(
    layer: string,
    opts: { where?: string | undefined; chunk?: number; bytes?: boolean } = {},
  ): AsyncGenerator<{ props: Record<string, unknown>; geometry: Geometry | null }> {
    const chunk = opts.chunk ?? 5000
    const where = opts.where ? ` WHERE ${opts.where}` : ''
    for (let offset = 0; ; offset += chunk) {
      const lines = await sqlLines(
        gdal,
        dataset,
        `SELECT * FROM ${quoteIdent(layer)}${where} LIMIT ${chunk} OFFSET ${offset}`,
        opts.bytes,
      )
      for (const line of lines) {
        const f = JSON.parse(line) as { properties?: Record<string, unknown> | null; geometry?: Geometry | null }
        yield { props: f.properties ?? {}, geometry: f.geometry ?? null }
      }
      if (lines.length < chunk) return
    }
  }
  return {
    driver: info.driverShortName ?? 'unknown',
    layers,
    features,
    async countBy(layer, field, opts = {}) {
      // Counted from the features as the import reads them. GDAL's SQLite dialect (GROUP BY) stops a
      // DGN after the count of its element index, which leaves out the shapes of a cell that follows a
      // complex shape (a polygon with a hole after one of more than 38 vertices) and what comes after.
      const counts = new Map<string, number>()
      for await (const f of features(layer, { bytes: opts.bytes ?? false })) {
        const value = String(f.props[field] ?? '')
        counts.set(value, (counts.get(value) ?? 0) + 1)
      }
      const numeric = [...counts.keys()].every((v) => /^-?\d+$/.test(v))
      return [...counts]
        .map(([value, count]) => ({ value, count }))
        .sort((a, b) =>
          numeric ? Number(a.value) - Number(b.value) : a.value < b.value ? -1 : a.value > b.value ? 1 : 0,
        )
    },
    close: () => gdal.close(ds),
  }
}

function describeGdalError(err: unknown): string {
  const message =
    err && typeof err === 'object' && 'message' in err ? String((err as { message: unknown }).message).trim() : ''
  return message || 'GDAL không mở được tệp (định dạng không hỗ trợ hoặc tệp hỏng)'
}
