import { basename } from 'node:path'
import { openVector, type VectorFile } from '../../gdal/vector.ts'
import { ImportError } from '../errors.ts'
import { columnKey } from '../fields.ts'
import type { SourceRecord } from '../types.ts'
import { decodeText, detectEncoding, type TextEncoding } from '../vietnamese-encodings.ts'
import type { Reader } from './reader.ts'
import type { TextOutcome } from './text.ts'
import { cellText, HEADER_SEARCH_ROWS, pickSheet, sheetRecords, type Cells } from './workbook.ts'

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

function cellsOf(props: Record<string, unknown>, encoding: TextEncoding): Cells {
  const cells: Cells = []
  for (const [name, value] of Object.entries(props)) {
    const col = /^Field(\d+)$/.exec(name)
    const text = cellText(value === null || value === undefined ? value : decodeText(String(value), encoding))
    if (col && text !== null) cells[Number(col[1]) - 1] = text
  }
  return Array.from(cells, (c) => c ?? null)
}

async function openWorkbook(file: string): Promise<VectorFile> {
  try {
    return await openVector(file, xlsxOptions)
  } catch (err) {
    throw new ImportError(`Không đọc được ${basename(file)}: ${(err as Error).message}`)
  }
}

/** The sheets of a workbook with their row counts, as `--list-layers` prints them. */
export async function xlsxSheets(file: string): Promise<{ name: string; count: number }[]> {
  const vf = await openWorkbook(file)
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

/**
 * Reads a workbook's tables, one per sheet (or the one --sheet names), each found below its title rows
 * as workbook.ts describes.
 */
export async function readXlsx(
  file: string,
  opts: { sheet?: string | undefined; labels: string[]; encoding?: TextEncoding | undefined },
): Promise<Reader> {
  const vf = await openWorkbook(file)
  const sheets = vf.layers.map((l) => l.name)
  let chosen = sheets
  if (opts.sheet !== undefined) {
    const hit = pickSheet(sheets, opts.sheet)
    if (!hit) {
      await vf.close()
      throw new ImportError(
        `Tệp ${basename(file)} không có trang tính ${JSON.stringify(opts.sheet)}; các trang: ${sheets.join(', ')}`,
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

  async function* rowsOf(sheet: string): AsyncGenerator<Cells> {
    for await (const f of vf.features(sheet, { bytes: true })) {
      done++
      yield cellsOf(f.props, text.encoding)
    }
  }
  async function* records(): AsyncGenerator<SourceRecord> {
    for (const sheet of chosen) yield* sheetRecords(sheet, rowsOf(sheet), labels)
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
