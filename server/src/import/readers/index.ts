import { existsSync, statSync } from 'node:fs'
import { extname } from 'node:path'
import { ImportError } from '../errors.ts'
import type { Crs, FileFormat, SourceRecord } from '../types.ts'
import { readCsv } from './csv.ts'
import { readWithGdal } from './gdal.ts'
import { readGeojson } from './geojson.ts'
import { readShapefile } from './shapefile.ts'

export type Reader = {
  format: FileFormat
  /** How a record's number reads in a report: a CSV line or a feature's position. */
  unit: 'dòng' | 'đối tượng'
  /** The CRS the file declares (a shapefile's .prj), when recognised. */
  declaredCrs: Crs | null
  /** The .prj text when there is one, for messages. */
  prj: string | null
  /** Coordinates beyond ±180/±90: metres of a projected grid, which need a CRS to be placed. */
  looksProjected?: boolean
  records: AsyncIterable<SourceRecord>
  /** Bytes read of the main file so far, against its size: enough for a progress bar. */
  progress(): { done: number; total: number }
  /** Releases the files, whether or not the records were read to the end. */
  close(): Promise<void>
}

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
}

export function formatOf(file: string): FileFormat | null {
  return formats[extname(file).toLowerCase()] ?? null
}

export async function openReader(file: string, opts: { encoding?: string | undefined; layer?: string | undefined } = {}): Promise<Reader> {
  if (!existsSync(file) || !statSync(file).isFile()) throw new ImportError(`Không tìm thấy tệp ${file}`)
  const format = formatOf(file)
  if (format === 'geojson') return readGeojson(file)
  if (format === 'shapefile') return readShapefile(file, opts.encoding)
  if (format === 'csv') return readCsv(file, opts.encoding)
  if (format) return readWithGdal(file, format, { layer: opts.layer })
  throw new ImportError(`Không đọc được định dạng "${extname(file) || file}": dùng ${Object.keys(formats).join(', ')}`)
}

/** A TextDecoder for a label from --encoding or a .cpg file (which may hold a Windows code page number). */
export function decoderFor(label: string, fatal: boolean): TextDecoder {
  const codePages: Record<string, string> = { '65001': 'utf-8', '1258': 'windows-1258', '1252': 'windows-1252', '874': 'windows-874' }
  const bare = label.trim().replace(/^ANSI\s*/i, '')
  const name = codePages[bare] ?? bare
  try {
    return new TextDecoder(name, { fatal })
  } catch {
    throw new ImportError(`Không biết bảng mã "${label}" (ví dụ hợp lệ: utf-8, windows-1258)`)
  }
}
