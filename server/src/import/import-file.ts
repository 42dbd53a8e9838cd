import { basename, extname } from 'node:path'
import { resolveProvince } from '#core/geo/provinces.ts'
import { foldVietnamese } from '#core/text/fold.ts'
import type { Database } from '../db/database.ts'
import { bumpDataVersion } from '../tiles/version.ts'
import { formatCrs, projectorFor } from './crs.ts'
import { ImportError, RowError } from './errors.ts'
import { createFieldReader } from './fields.ts'
import { kinds } from './kinds/index.ts'
import { formatOf, openReader } from './readers/index.ts'
import type { TextOutcome } from './readers/text.ts'
import type { Crs, ImportKind, Rejection } from './types.ts'
import { isoDate } from './values.ts'

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

export type ImportProgress = {
  read: number
  inserted: number
  rejected: number
  /** Bytes of the file read so far, against its size. */
  done: number
  total: number
}

export type ImportSummary = {
  datasetId: string
  kind: ImportKind
  crs: string
  crsFrom: 'option' | 'prj' | 'province' | 'default'
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
  /** The encoding attribute text was read in and how it was chosen; absent for GeoJSON (always UTF-8). */
  text?: TextOutcome | null | undefined
  dataVersion: number
  seconds: number
  rowsPerSecond: number
}

const MAX_KEPT_REJECTIONS = 1000

/** `parcels-ban-do-dia-chinh-phuong-1` from the kind and the file name. */
export function defaultDatasetId(kind: ImportKind, file: string): string {
  const stem = foldVietnamese(basename(file, extname(file)))
    .replace(/[^a-z0-9]+/g, '-')
    .replace(/^-+|-+$/g, '')
  return `${kind}-${stem || 'du-lieu'}`.slice(0, 80)
}

export const datasetIdPattern = /^[A-Za-z0-9][A-Za-z0-9._-]{0,79}$/

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
  const kind = kinds[options.kind]
  if (!kind) throw new ImportError(`Loại dữ liệu không hợp lệ: ${String(options.kind)}`)
  const dataDate = isoDate(options.date)
  if (!dataDate) throw new ImportError(`Ngày dữ liệu không hợp lệ: ${JSON.stringify(options.date)} (cần YYYY-MM-DD)`)
  const source = options.source.trim()
  if (!source) throw new ImportError('Thiếu nguồn dữ liệu (--source)')
  const datasetId = options.datasetId ?? defaultDatasetId(options.kind, options.file)
  if (!datasetIdPattern.test(datasetId))
    throw new ImportError(`Mã bộ dữ liệu không hợp lệ: ${JSON.stringify(datasetId)} (chữ, số, . _ -)`)
  const priceUnit = options.priceUnit ?? 1
  if (!(priceUnit > 0)) throw new ImportError('--price-unit phải là số dương')
  const format = formatOf(options.file)
  if (format && !kind.formats.includes(format)) {
    throw new ImportError(`Không nhập ${options.kind} từ tệp ${format}; dùng ${kind.formats.join(' hoặc ')}`)
  }
  const province = options.province === undefined ? undefined : resolveProvince(options.province)
  if (options.province !== undefined && !province) {
    throw new ImportError(
      `Không nhận ra tỉnh/thành phố ${JSON.stringify(options.province)} (--province); ghi tên tỉnh, ví dụ "TP. Hồ Chí Minh", hoặc dùng --crs vn2000:<kinh tuyến trục>`,
    )
  }
  const fallback: Record<string, string> =
    province && Object.hasOwn(kind.fields, 'province') ? { province: province.name } : {}
  const fieldsOf = createFieldReader(kind.fields, options.map, options.set, fallback)
  const batchSize = options.batchSize ?? 2000

  const labels = [...Object.values(kind.fields).flatMap((f) => f.columns), ...Object.values(options.map ?? {})]
  const reader = await openReader(options.file, {
    encoding: options.encoding,
    layer: options.layer,
    sheet: options.sheet,
    labels,
  })
  try {
    const warnings: string[] = []
    let crs: Crs
    let crsFrom: ImportSummary['crsFrom']
    if (options.crs) {
      crs = options.crs
      crsFrom = 'option'
      if (reader.declaredCrs && formatCrs(reader.declaredCrs) !== formatCrs(crs)) {
        warnings.push(`Tệp .prj ghi ${formatCrs(reader.declaredCrs)} nhưng đã dùng ${formatCrs(crs)} theo --crs`)
      }
    } else if (reader.declaredCrs) {
      crs = reader.declaredCrs
      crsFrom = 'prj'
    } else if (province) {
      crs = { kind: 'vn2000', meridian: province.meridian }
      crsFrom = 'province'
      if (province.meridiansAfterMerger.length > 1) {
        warnings.push(
          `${province.mergedInto} sau sáp nhập 2025 dùng nhiều kinh tuyến trục (${province.meridiansAfterMerger.join(', ')}); đã dùng ${province.meridian} của ${province.name}. Nếu tệp thuộc phần khác, dùng --crs vn2000:<kinh tuyến trục>`,
        )
      }
    } else if (reader.looksProjected || reader.format === 'dgn' || reader.format === 'dxf') {
      // CAD drawings (DGN, DXF) carry no CRS and are never in degrees.
      throw new ImportError(
        `${basename(options.file)} không ghi hệ tọa độ và có tọa độ phẳng (mét); hãy chỉ rõ --crs vn2000:<kinh tuyến trục> (ví dụ vn2000:105.75) hoặc --province "<tỉnh/thành phố>"`,
      )
    } else if (reader.format === 'shapefile') {
      throw new ImportError(
        reader.prj
          ? `Không nhận ra hệ tọa độ trong tệp .prj (${reader.prj.slice(0, 60)}…); hãy chỉ rõ --crs EPSG:4326 hoặc --crs vn2000:<kinh tuyến trục>`
          : 'Shapefile không có tệp .prj; hãy chỉ rõ --crs EPSG:4326 hoặc --crs vn2000:<kinh tuyến trục>',
      )
    } else {
      crs = { kind: 'wgs84' }
      crsFrom = 'default'
    }

    const result = await db.transaction(async (tx) => {
      // The geometry functions' high declared costs make PostgreSQL JIT-compile every batch, which
      // costs more than the batch itself (≈1 s each); PGlite has no JIT and ignores the setting.
      await tx.query('set local jit = off')
      const [existing] = await tx.query<{ kind: string }>('select kind from datasets where id = $1 for update', [
        datasetId,
      ])
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
        source,
        dataDate,
        formatCrs(crs),
      ])

      const handler = kind.create({
        datasetId,
        crs,
        project: projectorFor(crs),
        source,
        date: dataDate,
        priceUnit,
        priceUnitGiven: options.priceUnit !== undefined,
      })
      let read = 0
      let inserted = 0
      let repaired = 0
      let rejected = 0
      const rejections: Rejection[] = []
      // Rows of a workbook are numbered per sheet: the report keeps the sheets in the file's order.
      const sheetOrder = new Map<string | undefined, number>()
      const reject = (r: Rejection) => {
        rejected++
        if (!sheetOrder.has(r.sheet)) sheetOrder.set(r.sheet, sheetOrder.size)
        if (rejections.length < MAX_KEPT_REJECTIONS) rejections.push(r)
      }
      const report = () => onProgress({ read, inserted, rejected, ...reader.progress() })
      const flush = async () => {
        const r = await handler.flush(tx)
        inserted += r.inserted
        repaired += r.repaired
        r.rejected.forEach(reject)
        report()
      }
      // One batch is written while the next is read and mapped: on PostgreSQL the two overlap.
      let writing: Promise<void> = Promise.resolve()
      const startFlush = async () => {
        await writing
        writing = flush()
        // Handled when awaited before the next batch or at the end; this only keeps Node from
        // calling it unhandled while the file is still being read.
        writing.catch(() => {})
      }

      try {
        for await (const rec of reader.records) {
          read++
          const at = rec.sheet === undefined ? { n: rec.n } : { n: rec.n, sheet: rec.sheet }
          if (rec.error) {
            reject({ ...at, reason: rec.error })
          } else {
            try {
              handler.add(rec, fieldsOf(rec.props))
            } catch (err) {
              if (!(err instanceof RowError)) throw err
              reject({ ...at, reason: err.message })
            }
          }
          if (handler.pending() >= batchSize) await startFlush()
          else if (read % 1000 === 0) report()
        }
        handler.end?.()
        await startFlush()
        await writing
      } catch (err) {
        // Let the batch in flight finish before the rollback, so no statement is left running.
        await writing.catch(() => {})
        throw err
      }
      rejections.sort((a, b) => sheetOrder.get(a.sheet)! - sheetOrder.get(b.sheet)! || a.n - b.n)

      if (inserted === 0) {
        throw new ImportError(
          read === 0
            ? `Tệp không có ${reader.unit} dữ liệu nào`
            : `Không có ${reader.unit} hợp lệ nào trong ${read} ${reader.unit}; không nhập gì`,
          {
            rejections,
            rejectedCount: rejected,
            unit: reader.unit,
          },
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
      return { read, inserted, repaired, rejected, rejections, dataVersion, replaced: existing !== undefined }
    })

    const seconds = (performance.now() - started) / 1000
    return {
      datasetId,
      kind: options.kind,
      crs: formatCrs(crs),
      crsFrom,
      unit: reader.unit,
      warnings,
      text: reader.text?.(),
      ...result,
      seconds,
      rowsPerSecond: result.inserted / Math.max(seconds, 1e-3),
    }
  } finally {
    await reader.close()
  }
}
