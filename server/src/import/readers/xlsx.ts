import { basename } from 'node:path'
import { openVector, type VectorFile } from '../../gdal/vector.ts'
import { ImportError } from '../errors.ts'
import { columnKey } from '../fields.ts'
import type { SourceRecord } from '../types.ts'
import type { Reader } from './reader.ts'
import type { TextOutcome } from './text.ts'
import { decodeText, detectEncoding, type TextEncoding } from '../vietnamese-encodings.ts'

/** How far down a sheet the header row is looked for (title, decision number, unit lines come first). */
const HEADER_SEARCH_ROWS = 30

/**
 * GDAL's XLSX driver reads each sheet as a layer. HEADERS=DISABLE makes every row a feature (Field1…
 * FieldN by column), so the title rows above a province's table and the header row itself reach us and
 * the header is found by its labels. gdal3.js 2.8.1 applies that open option to the first sheet only
 * and auto-detects a header on the others, so the configuration option it falls back to is set too.
 * FIELD_TYPES=STRING: a column holds header text above its numbers, so GDAL would type it String
 * anyway; numbers arrive as Excel stored them ("687200") and text as typed ("687.200"), and the
 * kind's number parsing reads both. GDAL fills the gaps between <row> elements with empty features,
 * so feature i is row i. It ignores <mergeCells>: a merged cell's value is in its first cell only,
 * and carrying it down is the kind's business (see kinds/prices.ts).
 */
const xlsxOptions = { openOptions: ['HEADERS=DISABLE', 'FIELD_TYPES=STRING'], config: { OGR_XLSX_HEADERS: 'DISABLE' } }

type Cells = (string | null)[]

function cellsOf(props: Record<string, unknown>, encoding: TextEncoding): Cells {
  const cells: Cells = []
  for (const [name, value] of Object.entries(props)) {
    const col = /^Field(\d+)$/.exec(name)
    const text = value === null || value === undefined ? '' : decodeText(String(value), encoding).trim()
    if (col && text !== '') cells[Number(col[1]) - 1] = text
  }
  return Array.from(cells, (c) => c ?? null)
}

const matches = (cells: Cells, labels: Set<string>) =>
  cells.filter((c) => c !== null && labels.has(columnKey(c))).length

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
 * Reads a workbook's tables, one per sheet (or the one --sheet names): the header row is the first of
 * the top rows with two or more of `labels` (the column names the kind looks for, folded as --map
 * compares them), joined with the rows right above and below it that hold a label too. Each later row
 * with any value becomes a record numbered by its row in the sheet, as Excel shows it. A sheet with no
 * such header gives one rejected record, so it is reported rather than silently left out.
 */
/** The sheets of a workbook with their row counts, as `--list-layers` prints them. */
export async function xlsxSheets(file: string): Promise<{ name: string; count: number }[]> {
  let vf: VectorFile
  try {
    vf = await openVector(file, xlsxOptions)
  } catch (err) {
    throw new ImportError(`Không đọc được ${basename(file)}: ${(err as Error).message}`)
  }
  try {
    return vf.layers.map((l) => ({ name: l.name, count: l.featureCount }))
  } finally {
    await vf.close()
  }
}

/**
 * A workbook is Unicode, but tables typed with .VnTime or VNI fonts hold TCVN3 or VNI stored as
 * Latin-1 characters: the encoding is --encoding, else read off the top rows of the first sheet.
 */
async function cellEncoding(
  vf: VectorFile,
  sheet: string | undefined,
  given: TextEncoding | undefined,
): Promise<TextOutcome> {
  if (given) return { encoding: given, from: 'option' }
  const sample: string[] = []
  if (sheet !== undefined) {
    let row = 0
    for await (const f of vf.features(sheet, { bytes: true })) {
      for (const v of Object.values(f.props)) if (typeof v === 'string' && /[^\x20-\x7e]/.test(v)) sample.push(v)
      if (++row >= HEADER_SEARCH_ROWS) break
    }
  }
  return { encoding: detectEncoding(sample), from: 'detected' }
}

export async function readXlsx(
  file: string,
  opts: { sheet?: string | undefined; labels: string[]; encoding?: TextEncoding | undefined },
): Promise<Reader> {
  let vf: VectorFile
  try {
    vf = await openVector(file, xlsxOptions)
  } catch (err) {
    throw new ImportError(`Không đọc được ${basename(file)}: ${(err as Error).message}`)
  }
  const sheets = vf.layers.map((l) => l.name)
  let chosen = sheets
  if (opts.sheet !== undefined) {
    const wanted = opts.sheet
    const hit = sheets.find((s) => s === wanted) ?? sheets.find((s) => columnKey(s) === columnKey(wanted))
    if (!hit) {
      await vf.close()
      throw new ImportError(
        `Tệp ${basename(file)} không có trang tính ${JSON.stringify(wanted)}; các trang: ${sheets.join(', ')}`,
      )
    }
    chosen = [hit]
  }
  const labels = new Set(opts.labels.map(columnKey))
  let text: TextOutcome
  try {
    text = await cellEncoding(vf, chosen[0], opts.encoding)
  } catch (err) {
    await vf.close()
    throw err
  }
  const total = vf.layers.filter((l) => chosen.includes(l.name)).reduce((n, l) => n + l.featureCount, 0)
  let done = 0

  async function* sheetRecords(sheet: string): AsyncGenerator<SourceRecord> {
    const top: Cells[] = []
    let header: Cells[] | null = null
    let names: string[] | null = null
    let row = 0
    for await (const f of vf.features(sheet, { bytes: true })) {
      row++
      done++
      const cells = cellsOf(f.props, text.encoding)
      if (!names) {
        if (header && matches(cells, labels) >= 1) {
          header.push(cells)
          continue
        }
        if (header) {
          names = columnNames(header, labels)
        } else {
          top.push(cells)
          if (matches(cells, labels) >= 2) {
            let first = top.length - 1
            while (first > 0 && matches(top[first - 1]!, labels) >= 1) first--
            header = top.slice(first)
          } else if (row >= HEADER_SEARCH_ROWS) {
            break
          }
          continue
        }
      }
      if (cells.length === 0) continue
      const props: Record<string, unknown> = {}
      cells.forEach((v, i) => {
        if (v !== null) props[names![i] ?? `cot_${i + 1}`] = v
      })
      yield { n: row, sheet, props, geometry: null }
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

  async function* records(): AsyncGenerator<SourceRecord> {
    for (const sheet of chosen) yield* sheetRecords(sheet)
  }
  return {
    format: 'xlsx',
    unit: 'dòng',
    declaredCrs: null,
    prj: null,
    records: records(),
    text: () => text,
    progress: () => ({ done, total }),
    close: () => vf.close(),
  }
}
