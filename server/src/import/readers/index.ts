import { existsSync, statSync } from 'node:fs'
import { basename, extname } from 'node:path'
import { ImportError } from '../errors.ts'
import type { FileFormat } from '../types.ts'
import { readCsv } from './csv.ts'
import { listLayers as gdalLayers, readWithGdal } from './gdal.ts'
import { readGeojson } from './geojson.ts'
import { kmlLayers, readKml } from './kml.ts'
import type { Reader } from './reader.ts'
import { readShapefile } from './shapefile.ts'
import { parseEncodingOption } from '../vietnamese-encodings.ts'
import { readXls, xlsSheets } from './xls.ts'
import { readXlsx, xlsxSheets } from './xlsx.ts'

const formats: Record<string, FileFormat> = {
  '.geojson': 'geojson',
  '.json': 'geojson',
  '.shp': 'shapefile',
  '.csv': 'csv',
  '.tsv': 'csv',
  '.txt': 'csv',
  '.dgn': 'dgn',
  '.tab': 'mapinfo',
  '.mif': 'mapinfo',
  '.dxf': 'dxf',
  '.gpkg': 'gpkg',
  '.kml': 'kml',
  '.kmz': 'kml',
  '.zip': 'zip',
  '.xlsx': 'xlsx',
  '.xls': 'xls',
}

export function formatOf(file: string): FileFormat | null {
  return formats[extname(file).toLowerCase()] ?? null
}

export type ReaderOptions = {
  encoding?: string | undefined
  layer?: string | undefined
  /** The sheet of a workbook (--sheet); all sheets when absent. */
  sheet?: string | undefined
  /** Column names the kind looks for: how a workbook's header row is found below its title rows. */
  labels?: string[] | undefined
}

/** The format of a file the importer reads; anything else stops with one line listing the extensions it takes. */
function knownFormat(file: string): FileFormat {
  if (!existsSync(file) || !statSync(file).isFile()) throw new ImportError(`Không tìm thấy tệp ${file}`)
  const format = formatOf(file)
  if (!format)
    throw new ImportError(
      `Không đọc được định dạng "${extname(file) || file}": dùng ${Object.keys(formats).join(', ')}`,
    )
  return format
}

/**
 * The layers a file offers, as lines for a person, in the names --layer (or --sheet for a workbook)
 * takes: the same files and the same readers as the import.
 */
export async function listLayers(file: string): Promise<string[]> {
  const format = knownFormat(file)
  if (format === 'kml') return kmlLayers(file).map((l) => `${l.name}: ${l.count} đối tượng`)
  if (format === 'xlsx' || format === 'xls') {
    const sheets = format === 'xls' ? xlsSheets(file) : await xlsxSheets(file)
    return sheets.map((s) => `trang tính ${s.name}: ${s.count} dòng (chọn bằng --sheet)`)
  }
  if (format === 'geojson' || format === 'shapefile' || format === 'csv')
    return [`${basename(file)}: một lớp, không cần --layer`]
  return gdalLayers(file)
}

export async function openReader(file: string, opts: ReaderOptions = {}): Promise<Reader> {
  const format = knownFormat(file)
  const encoding = opts.encoding === undefined ? undefined : parseEncodingOption(opts.encoding)
  if (format === 'geojson') return readGeojson(file, encoding)
  if (format === 'shapefile') return readShapefile(file, encoding)
  if (format === 'csv') return readCsv(file, encoding)
  if (format === 'xlsx') return readXlsx(file, { sheet: opts.sheet, labels: opts.labels ?? [], encoding })
  if (format === 'xls') return readXls(file, { sheet: opts.sheet, labels: opts.labels ?? [] })
  if (format === 'kml') return readKml(file, { layer: opts.layer, encoding })
  return readWithGdal(file, format, { layer: opts.layer, encoding })
}
