import { readFileSync, statSync } from 'node:fs'
import { basename } from 'node:path'
import XLSX from '@e965/xlsx'
import { ImportError } from '../errors.ts'
import { columnKey } from '../fields.ts'
import type { SourceRecord } from '../types.ts'
import type { Reader } from './reader.ts'
import { cellText, pickSheet, sheetRecords, type Cells } from './workbook.ts'

/**
 * Reads an Excel 97–2003 workbook (.xls, BIFF8), the format provinces publish their price tables in,
 * with SheetJS (GDAL's XLS driver needs FreeXL, which gdal3.js does not carry). Every sheet, or the
 * one --sheet names, is a table found below its title rows as workbook.ts describes. Numbers arrive as
 * Excel stored them, so "286000" is a number and never a date; a merged cell's value is in its first
 * cell only, as with .xlsx, and carrying it down is the kind's business.
 */
export function readXls(file: string, opts: { sheet?: string | undefined; labels: string[] }): Reader {
  let book: XLSX.WorkBook
  try {
    book = XLSX.read(readFileSync(file), { type: 'buffer', cellDates: false, cellFormula: false, cellHTML: false })
  } catch (err) {
    throw new ImportError(`Không đọc được ${basename(file)} như bảng tính Excel (.xls): ${(err as Error).message}`)
  }
  const sheets = book.SheetNames
  let chosen = sheets
  if (opts.sheet !== undefined) {
    const hit = pickSheet(sheets, opts.sheet)
    if (!hit) {
      throw new ImportError(
        `Tệp ${basename(file)} không có trang tính ${JSON.stringify(opts.sheet)}; các trang: ${sheets.join(', ')}`,
      )
    }
    chosen = [hit]
  }
  const labels = new Set(opts.labels.map(columnKey))
  const rowsBySheet = new Map<string, Cells[]>(
    chosen.map((name) => {
      const sheet = book.Sheets[name]
      const rows = sheet
        ? XLSX.utils.sheet_to_json<unknown[]>(sheet, { header: 1, raw: true, defval: null, blankrows: true })
        : []
      return [name, rows.map((r) => Array.from(r, cellText))]
    }),
  )
  const total = [...rowsBySheet.values()].reduce((n, rows) => n + rows.length, 0)
  const size = statSync(file).size
  let done = 0

  function* counted(rows: Cells[]): Generator<Cells> {
    for (const r of rows) {
      done++
      yield r
    }
  }
  async function* records(): AsyncGenerator<SourceRecord> {
    for (const [name, rows] of rowsBySheet) yield* sheetRecords(name, counted(rows), labels)
  }
  return {
    format: 'xls',
    unit: 'dòng',
    declaredCrs: null,
    prj: null,
    records: records(),
    // The whole file is read at once; progress follows the rows mapped.
    progress: () => ({ done: total === 0 ? size : Math.round((done / total) * size), total: size }),
    close: async () => {},
  }
}
