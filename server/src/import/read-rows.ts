import { ImportError, RowError } from './errors.ts'
import { missingColumns } from './fields.ts'
import type { BatchResult, KindHandler } from './kinds/kind.ts'
import type { PreparedImport } from './prepare.ts'
import type { Rejection } from './types.ts'

export type ImportProgress = {
  read: number
  inserted: number
  rejected: number
  /** Bytes of the file read so far, against its size. */
  done: number
  total: number
}

export type RowCounts = { read: number; inserted: number; repaired: number; rejected: number; rejections: Rejection[] }

const MAX_KEPT_REJECTIONS = 1000
// Files whose features may leave out a property (GeoJSON, KML) show their columns over the first
// records: a required field no record gives by then is missing from the file, not from one row.
const COLUMN_CHECK_RECORDS = 1000

/**
 * Reads every record of the file into the kind's batches, `flush` writing (or, in a dry run, taking)
 * each full batch while the next is read. Owner columns are dropped first; a file with no column for a
 * required field stops with one line; each unusable row is kept as a rejection with its number.
 */
export async function readRows(
  p: PreparedImport,
  handler: KindHandler,
  opts: { batchSize: number; flush: () => Promise<BatchResult>; onProgress: (p: ImportProgress) => void },
): Promise<RowCounts> {
  const { reader, fieldsOf, kind } = p
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
  const report = () => opts.onProgress({ read, inserted, rejected, ...reader.progress() })
  const flush = async () => {
    const r = await opts.flush()
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

  const required = Object.keys(kind.fields).filter((f) => kind.fields[f]!.required && !p.given.has(f))
  const found: Record<string, string | undefined> = {}
  let columns: string[] | null = null
  let checked = required.length === 0
  const checkColumns = () => {
    checked = true
    const line = missingColumns(kind.fields, found, columns ?? [], p.given)
    if (line) throw new ImportError(line)
  }

  try {
    for await (const raw of reader.records) {
      read++
      const rec = raw.error ? raw : { ...raw, props: p.personal.strip(raw.props) }
      const at = rec.sheet === undefined ? { n: rec.n } : { n: rec.n, sheet: rec.sheet }
      if (rec.error) {
        reject({ ...at, reason: rec.error })
      } else {
        if (!checked) {
          columns ??= Object.keys(rec.props)
          const resolved = fieldsOf.columnsFor(rec.props)
          for (const f of required) found[f] ??= resolved[f]
          if (required.every((f) => found[f]) || read >= COLUMN_CHECK_RECORDS) checkColumns()
        }
        try {
          handler.add(rec, fieldsOf(rec.props))
        } catch (err) {
          if (!(err instanceof RowError)) throw err
          reject({ ...at, reason: err.message })
        }
      }
      if (handler.pending() >= opts.batchSize) await startFlush()
      else if (read % 1000 === 0) report()
    }
    if (!checked && columns) checkColumns()
    handler.end?.()
    await startFlush()
    await writing
  } catch (err) {
    // Let the batch in flight finish before the rollback, so no statement is left running.
    await writing.catch(() => {})
    throw err
  }
  rejections.sort((a, b) => sheetOrder.get(a.sheet)! - sheetOrder.get(b.sheet)! || a.n - b.n)
  return { read, inserted, repaired, rejected, rejections }
}
