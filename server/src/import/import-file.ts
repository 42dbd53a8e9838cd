import { basename } from 'node:path'
import type { Database, Queryable } from '../db/database.ts'
import { bumpDataVersion } from '../tiles/version.ts'
import { formatCrs, projectorFor } from './crs.ts'
import { ImportError } from './errors.ts'
import { prepareImport, type PreparedImport } from './prepare.ts'
import { readRows, type ImportProgress } from './read-rows.ts'
import type { TextOutcome } from './readers/text.ts'
import type { CrsFrom } from './resolve-crs.ts'
import type { ImportKind, ImportOptions, Rejection } from './types.ts'

export type { ImportOptions } from './types.ts'

export type ImportSummary = {
  datasetId: string
  kind: ImportKind
  crs: string
  crsFrom: CrsFrom
  /** Where the file declares its CRS ("tệp .prj", "SRS của GeoPackage" …), when it was taken from the file. */
  crsSource?: string | undefined
  /** True when a dataset with this id existed and was replaced. */
  replaced: boolean
  unit: 'dòng' | 'đối tượng'
  read: number
  inserted: number
  repaired: number
  rejected: number
  /** The first rejections (up to 1,000), by line or feature number. */
  rejections: Rejection[]
  warnings: string[]
  /** Columns left out because they name the owner (personal data). */
  personalColumns: string[]
  /** The encoding attribute text was read in and how it was chosen; absent for GeoJSON (always UTF-8). */
  text?: TextOutcome | null | undefined
  dataVersion: number
  seconds: number
  rowsPerSecond: number
}

/**
 * Imports one file as one dataset, all or nothing: the dataset row, its rows and the data-version
 * bump (which invalidates tiles) commit together, and any failure leaves the database as it was.
 * A dataset with the same id is deleted and replaced in that same transaction.
 */
export async function importFile(
  db: Database,
  options: ImportOptions,
  onProgress: (p: ImportProgress) => void = () => {},
): Promise<ImportSummary> {
  const started = performance.now()
  const p = await prepareImport(options)
  try {
    const result = await db.transaction((tx) => writeDataset(tx, p, options, onProgress))
    const seconds = (performance.now() - started) / 1000
    return {
      datasetId: p.datasetId,
      kind: options.kind,
      crs: formatCrs(p.crs),
      crsFrom: p.crsFrom,
      crsSource: p.crsFrom === 'file' ? p.reader.crsSource : undefined,
      unit: p.reader.unit,
      warnings: p.warnings,
      personalColumns: p.personal.dropped(),
      text: p.reader.text?.(),
      ...result,
      seconds,
      rowsPerSecond: result.inserted / Math.max(seconds, 1e-3),
    }
  } finally {
    await p.reader.close()
  }
}

/** The import's transaction: the dataset row (replacing one with the same id), its rows, its bounds and the data-version bump. */
async function writeDataset(
  tx: Queryable,
  p: PreparedImport,
  options: ImportOptions,
  onProgress: (p: ImportProgress) => void,
) {
  const { datasetId, kind } = p
  // The geometry functions' high declared costs make PostgreSQL JIT-compile every batch, which
  // costs more than the batch itself (docs/performance.md, "Import"); PGlite has no JIT and ignores the setting.
  await tx.query('set local jit = off')
  const [existing] = await tx.query<{ kind: string }>('select kind from datasets where id = $1 for update', [datasetId])
  if (existing && existing.kind !== options.kind) {
    throw new ImportError(
      `Bộ dữ liệu "${datasetId}" đã có, loại ${existing.kind}; không thay bằng loại ${options.kind}`,
    )
  }
  // Children go with the dataset (on delete cascade); readers never see the gap, the transaction hides it.
  if (existing) await tx.query('delete from datasets where id = $1', [datasetId])
  await tx.query('insert into datasets (id, kind, name, source, data_date, crs) values ($1, $2, $3, $4, $5, $6)', [
    datasetId,
    options.kind,
    options.name?.trim() || basename(options.file),
    p.source,
    p.dataDate,
    formatCrs(p.crs),
  ])
  const handler = kind.create({
    datasetId,
    crs: p.crs,
    project: projectorFor(p.crs),
    source: p.source,
    date: p.dataDate,
    priceUnit: p.priceUnit,
    priceUnitGiven: p.priceUnitGiven,
  })
  const counts = await readRows(p, handler, {
    batchSize: options.batchSize ?? 2000,
    flush: () => handler.flush(tx),
    onProgress,
  })
  if (counts.inserted === 0) {
    const unit = p.reader.unit
    throw new ImportError(
      counts.read === 0
        ? `Tệp không có ${unit} dữ liệu nào`
        : `Không có ${unit} hợp lệ nào trong ${counts.read} ${unit}; không nhập gì`,
      { rejections: counts.rejections, rejectedCount: counts.rejected, unit },
    )
  }
  await kind.finish?.(tx, datasetId)
  if (kind.geometryTables.length > 0) {
    const union = kind.geometryTables.map((t) => `select geom from ${t} where dataset_id = $1`).join(' union all ')
    await tx.query(
      `update datasets set bounds = (
         select ST_MakeEnvelope(ST_XMin(e), ST_YMin(e), ST_XMax(e), ST_YMax(e), 4326)
         from (select ST_Extent(geom) as e from (${union}) g) x where e is not null
       ) where id = $1`,
      [datasetId],
    )
  }
  const dataVersion = await bumpDataVersion(tx)
  return { ...counts, dataVersion, replaced: existing !== undefined }
}
