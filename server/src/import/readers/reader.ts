import type { Crs, FileFormat, SourceRecord } from '../types.ts'
import type { TextOutcome } from './text.ts'

/** What every format's reader gives the importer (the readers and openReader in index.ts share it). */
export type Reader = {
  format: FileFormat
  /** How a record's number reads in a report: a CSV line or a feature's position. */
  unit: 'dòng' | 'đối tượng'
  /** The CRS the file declares (a shapefile's .prj, a GeoPackage's SRS, a GeoJSON's `crs`), when recognised. */
  declaredCrs: Crs | null
  /** What the file declares as its CRS (the .prj text, a `crs` name) when there is one, for messages. */
  prj: string | null
  /** Where the declared CRS is written, for the summary: "tệp .prj", "SRS của GeoPackage" … */
  crsSource?: string
  /** Coordinates beyond ±180/±90: metres of a projected grid, which need a CRS to be placed. */
  looksProjected?: boolean
  records: AsyncIterable<SourceRecord>
  /** The encoding the text was read in, once known (after the first records when it is detected); null for formats always in UTF-8. */
  text?: () => TextOutcome | null
  /** Bytes read of the main file so far, against its size: enough for a progress bar. */
  progress(): { done: number; total: number }
  /** Releases the files, whether or not the records were read to the end. */
  close(): Promise<void>
}
