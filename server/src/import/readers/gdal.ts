import { basename } from 'node:path'
import { openVector, type VectorFile, type VectorLayer } from '../../gdal/vector.ts'
import { crsFromPrj } from '../crs.ts'
import { ImportError } from '../errors.ts'
import type { FileFormat, SourceRecord } from '../types.ts'
import { chooseEncoding, decodeText, type TextEncoding } from '../vietnamese-encodings.ts'
import type { Reader } from './reader.ts'
import { checkShapefileParts, shapefilePartsInZip } from './shapefile-check.ts'
import { decodeRecords } from './text.ts'

/** DGN keeps its "layers" as levels and DXF as a Layer attribute on one GDAL layer: --layer picks those. */
const attributeLayers: Record<string, { field: string; numeric: boolean; label: string }> = {
  DGN: { field: 'Level', numeric: true, label: 'level' },
  DXF: { field: 'Layer', numeric: false, label: 'layer' },
}

/** Where each driver's file writes its CRS, as the summary names it. */
const crsSources: Record<string, string> = {
  GPKG: 'SRS của GeoPackage',
  'MapInfo File': 'CoordSys của tệp MapInfo',
  'ESRI Shapefile': 'tệp .prj',
  KML: 'KML, luôn là WGS84',
}

const sqlText = (v: string) => `'${v.replace(/'/g, "''")}'`

/** The layers a file offers, as lines for a person: GDAL layers, or DGN levels / DXF layers with their counts. */
export async function listLayers(file: string): Promise<string[]> {
  const vf = await open(file)
  try {
    const byAttribute = attributeLayers[vf.driver]
    const layer = vf.layers[0]
    if (byAttribute && layer && vf.layers.length === 1) {
      // DXF layer names are text like any other in the drawing: read as bytes, in the encoding they show.
      const groups = await vf.countBy(layer.name, byAttribute.field, { bytes: true })
      const { encoding } = chooseEncoding(groups.map((g) => g.value))
      return groups.map((g) => `${byAttribute.label} ${decodeText(g.value, encoding)}: ${g.count} đối tượng`)
    }
    return vf.layers.map((l) => `${l.name}: ${l.featureCount} đối tượng, ${l.geometryType}`)
  } finally {
    await vf.close()
  }
}

const describeError = (err: unknown) =>
  (err && typeof err === 'object' && 'message' in err
    ? String((err as { message: unknown }).message)
    : String(err)
  ).trim()

/**
 * GDAL recodes DXF text by the header's $DWGCODEPAGE through iconv, which drops the last letter of
 * every Windows-1258 string (ANSI_1258, what AutoCAD on a Vietnamese Windows writes) and recodes the
 * UTF-8 of AutoCAD 2007+ drawings a second time. Declared as UTF-8, the text is not recoded: it comes
 * as the file's bytes, and its encoding is found from them like a DGN's.
 */
const openOptions = (file: string) => (/\.dxf$/i.test(file) ? { config: { DXF_ENCODING: 'UTF-8' } } : {})

async function open(file: string): Promise<VectorFile> {
  try {
    return await openVector(file, openOptions(file))
  } catch (err) {
    throw new ImportError(`Không đọc được ${basename(file)}: ${describeError(err)}`)
  }
}

function chooseLayer(
  vf: VectorFile,
  wanted: string | undefined,
  file: string,
): { layer: VectorLayer; where: string | undefined } {
  const list = () => vf.layers.map((l) => `${l.name} (${l.featureCount})`).join(', ')
  if (wanted !== undefined) {
    const named =
      vf.layers.find((l) => l.name === wanted) ?? vf.layers.find((l) => l.name.toLowerCase() === wanted.toLowerCase())
    if (named) return { layer: named, where: undefined }
    const byAttribute = attributeLayers[vf.driver]
    const only = vf.layers[0]
    if (byAttribute && only && vf.layers.length === 1) {
      if (byAttribute.numeric && !/^\d+$/.test(wanted))
        throw new ImportError(
          `--layer của tệp ${vf.driver} là số ${byAttribute.label} (ví dụ --layer 10), không phải ${JSON.stringify(wanted)}`,
        )
      return { layer: only, where: `${byAttribute.field} = ${byAttribute.numeric ? wanted : sqlText(wanted)}` }
    }
    throw new ImportError(`Tệp ${basename(file)} không có lớp ${JSON.stringify(wanted)}; các lớp: ${list()}`)
  }
  const withFeatures = vf.layers.filter((l) => l.featureCount !== 0)
  if (withFeatures.length > 1)
    throw new ImportError(`Tệp ${basename(file)} có ${withFeatures.length} lớp: ${list()}; chọn một bằng --layer <tên>`)
  const layer = withFeatures[0] ?? vf.layers[0]
  if (!layer) throw new ImportError(`Tệp ${basename(file)} không có lớp dữ liệu nào`)
  return { layer, where: undefined }
}

/**
 * Reads any vector format GDAL knows through one path: DGN, MapInfo, DXF, GPKG, KML, XLSX, and .zip
 * archives as sent. The file's declared CRS (GPKG SRS, TAB CoordSys, a .prj in a zip) is recognised
 * like a shapefile's .prj; `looksProjected` says whether coordinates are metres, so a missing CRS is
 * an error rather than a silent WGS84. Attribute text is read as bytes and converted to Unicode
 * (vietnamese-encodings.ts): by --encoding, else as the file's text shows.
 */
export async function readWithGdal(
  file: string,
  format: FileFormat,
  opts: { layer?: string | undefined; encoding?: TextEncoding | undefined },
): Promise<Reader> {
  // GDAL reads a cut .shp as shapes without geometry and a cut .dbf as an error half-way: check first.
  if (format === 'zip') checkShapefileParts(await shapefilePartsInZip(file), file)
  const vf = await open(file)
  let chosen: ReturnType<typeof chooseLayer>
  try {
    chosen = chooseLayer(vf, opts.layer, file)
  } catch (err) {
    await vf.close()
    throw err
  }
  const { layer, where } = chosen
  let done = 0
  async function* records(): AsyncGenerator<SourceRecord> {
    let n = 0
    const features = vf.features(layer.name, { where, bytes: true })
    for (;;) {
      let next: IteratorResult<{ props: Record<string, unknown>; geometry: SourceRecord['geometry'] }>
      try {
        next = await features.next()
      } catch (err) {
        throw new ImportError(
          `Không đọc được ${basename(file)} đến hết sau đối tượng thứ ${n} (tệp hỏng hoặc bị cắt): ${describeError(err)}`,
        )
      }
      if (next.done) return
      n++
      done = n
      yield { n, props: next.value.props, geometry: next.value.geometry }
    }
  }
  const e = layer.extent
  // Text comes as bytes: GeoPackage and KML are UTF-8 by definition, but a tool may have stored TCVN3
  // or VNI read as Latin-1 in them; DGN text, DXF, MapInfo and a zipped .dbf may be in any legacy
  // encoding, which GDAL passes through as bytes (or as Latin-1 when it cannot convert a charset).
  const text = decodeRecords(
    records(),
    opts.encoding ? { encoding: opts.encoding, from: 'option' } : { detect: true, fallback: 'utf-8' },
  )
  return {
    format,
    unit: 'đối tượng',
    declaredCrs: layer.wkt ? crsFromPrj(layer.wkt) : null,
    prj: layer.wkt,
    crsSource: crsSources[vf.driver] ?? `hệ tọa độ ghi trong tệp ${vf.driver}`,
    looksProjected:
      e !== null && (Math.abs(e[0]) > 180 || Math.abs(e[2]) > 180 || Math.abs(e[1]) > 90 || Math.abs(e[3]) > 90),
    records: text.records,
    text: text.outcome,
    progress: () => ({ done, total: Math.max(layer.featureCount, done) }),
    close: () => vf.close(),
  }
}
