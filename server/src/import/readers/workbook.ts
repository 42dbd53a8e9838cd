import { columnKey } from '../fields.ts'
import type { SourceRecord } from '../types.ts'

/** How far down a sheet the header row is looked for (title, decision number, unit lines come first). */
export const HEADER_SEARCH_ROWS = 30

/** One row's cells by column, each trimmed text or null. */
export type Cells = (string | null)[]

/**
 * A cell as text: trimmed, in NFC, and with the line breaks a published table wraps long names with
 * folded into one space ("TỪ\n (ĐIỂM ĐẦU)", "ĐƯỜNG NỘI BỘ\nCƯ XÁ VĨNH HỘI"); null when empty.
 */
export function cellText(value: unknown): string | null {
  if (value === null || value === undefined) return null
  const text = String(value)
    .normalize('NFC')
    .replace(/\s*[\r\n]+\s*/g, ' ')
    .trim()
  return text === '' ? null : text
}

const matches = (cells: Cells, labels: Set<string>) =>
  cells.filter((c) => c !== null && labels.has(columnKey(c))).length

/** The column numbers row many tables print under their header: "(1)", "(2)", … */
const isNumberingRow = (cells: Cells) => {
  const filled = cells.filter((c): c is string => c !== null)
  return filled.length >= 2 && filled.every((c) => /^\(\d+\)$/.test(c))
}

/**
 * Column names from the header block: the lowest cell of the column that is a known label, else its
 * lowest non-empty cell. A two-row header ("Đoạn đường" over "Từ" | "Đến", "Giá đất" over VT1–VT4,
 * each merged across) gives "Từ", "Đến", "VT1"…; a name used twice gets " (2)".
 */
function columnNames(block: Cells[], labels: Set<string>): string[] {
  const width = Math.max(...block.map((r) => r.length))
  const names: string[] = []
  for (let c = 0; c < width; c++) {
    const column = block.map((r) => r[c] ?? null).filter((v): v is string => v !== null)
    const name = column.findLast((v) => labels.has(columnKey(v))) ?? column.at(-1) ?? `cot_${c + 1}`
    let unique = name
    for (let i = 2; names.includes(unique); i++) unique = `${name} (${i})`
    names.push(unique)
  }
  return names
}

/**
 * One sheet's table as records: the header row is the first of the top rows with two or more of
 * `labels` (the column names the kind looks for, folded as --map compares them), joined with the rows
 * right above and below it that hold a label too; a "(1) (2) (3)" numbering row under it is skipped.
 * Each later row with any value becomes a record numbered by its row in the sheet, as Excel shows it,
 * carrying the sheet's heading lines (title, decision, unit) above the header. A sheet with no such
 * header gives one rejected record, so it is reported rather than silently left out.
 */
export async function* sheetRecords(
  sheet: string,
  rows: AsyncIterable<Cells> | Iterable<Cells>,
  labels: Set<string>,
): AsyncGenerator<SourceRecord> {
  const top: Cells[] = []
  let header: Cells[] | null = null
  let names: string[] | null = null
  let heading: string[] = []
  let row = 0
  for await (const cells of rows) {
    row++
    if (!names) {
      if (header && matches(cells, labels) >= 1) {
        header.push(cells)
        continue
      }
      if (header) {
        names = columnNames(header, labels)
        if (isNumberingRow(cells)) continue
      } else {
        top.push(cells)
        if (matches(cells, labels) >= 2) {
          let first = top.length - 1
          while (first > 0 && matches(top[first - 1]!, labels) >= 1) first--
          header = top.slice(first)
          heading = top.slice(0, first).flatMap((r) => r.filter((c): c is string => c !== null))
        } else if (row >= HEADER_SEARCH_ROWS) {
          break
        }
        continue
      }
    }
    if (cells.every((c) => c === null)) continue
    const props: Record<string, unknown> = {}
    cells.forEach((v, i) => {
      if (v !== null) props[names![i] ?? `cot_${i + 1}`] = v
    })
    yield { n: row, sheet, props, geometry: null, heading }
  }
  if (!header) {
    yield {
      n: 1,
      sheet,
      props: {},
      geometry: null,
      error: `không thấy dòng tiêu đề bảng (ví dụ "Tên đường", "Từ", "Đến", "VT1") trong ${HEADER_SEARCH_ROWS} dòng đầu; bỏ qua cả trang tính`,
    }
  }
}

/** The sheet --sheet names, by its exact name or folded; null when the workbook has none such. */
export function pickSheet(sheets: string[], wanted: string): string | null {
  return sheets.find((s) => s === wanted) ?? sheets.find((s) => columnKey(s) === columnKey(wanted)) ?? null
}
