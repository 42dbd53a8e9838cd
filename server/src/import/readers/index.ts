import { existsSync, statSync } from 'node:fs'
import { extname } from 'node:path'
import { ImportError } from '../errors.ts'
import type { FileFormat } from '../types.ts'
import { readCsv } from './csv.ts'
import { readWithGdal } from './gdal.ts'
import { readGeojson } from './geojson.ts'
import type { Reader } from './reader.ts'
import { readShapefile } from './shapefile.ts'
import { parseEncodingOption } from '../vietnamese-encodings.ts'
import { readXls } from './xls.ts'
import { readXlsx } from './xlsx.ts'

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

export async function openReader(file: string, opts: ReaderOptions = {}): Promise<Reader> {
  if (!existsSync(file) || !statSync(file).isFile()) throw new ImportError(`Không tìm thấy tệp ${file}`)
  const format = formatOf(file)
  const encoding = opts.encoding === undefined ? undefined : parseEncodingOption(opts.encoding)
  if (format === 'geojson') return readGeojson(file)
  if (format === 'shapefile') return readShapefile(file, encoding)
  if (format === 'csv') return readCsv(file, encoding)
  if (format === 'xlsx') return readXlsx(file, { sheet: opts.sheet, labels: opts.labels ?? [] })
  if (format === 'xls') return readXls(file, { sheet: opts.sheet, labels: opts.labels ?? [] })
  if (format) return readWithGdal(file, format, { layer: opts.layer, encoding })
  throw new ImportError(`Không đọc được định dạng "${extname(file) || file}": dùng ${Object.keys(formats).join(', ')}`)
}
