import { ImportError } from '../errors.ts'
import type { Crs, FileFormat, SourceRecord } from '../types.ts'

/** What every format's reader gives the importer (the readers and openReader in index.ts share it). */
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
