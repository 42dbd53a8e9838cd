import { basename } from 'node:path'
import { openVector, type VectorFile } from '../../gdal/vector.ts'
import { ImportError } from '../errors.ts'
import { columnKey } from '../fields.ts'
import type { SourceRecord } from '../types.ts'
import type { Reader } from './reader.ts'
import { cellText, pickSheet, sheetRecords, type Cells } from './workbook.ts'

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

function cellsOf(props: Record<string, unknown>): Cells {
  const cells: Cells = []
  for (const [name, value] of Object.entries(props)) {
    const col = /^Field(\d+)$/.exec(name)
    const text = cellText(value)
    if (col && text !== null) cells[Number(col[1]) - 1] = text
  }
  return Array.from(cells, (c) => c ?? null)
}

/**
 * Reads a workbook's tables, one per sheet (or the one --sheet names), each found below its title rows
 * as workbook.ts describes.
 */
export async function readXlsx(file: string, opts: { sheet?: string | undefined; labels: string[] }): Promise<Reader> {
  let vf: VectorFile
  try {
    vf = await openVector(file, xlsxOptions)
  } catch (err) {
    throw new ImportError(`Không đọc được ${basename(file)}: ${(err as Error).message}`)
  }
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
  const total = vf.layers.filter((l) => chosen.includes(l.name)).reduce((n, l) => n + l.featureCount, 0)
  let done = 0

  async function* rowsOf(sheet: string): AsyncGenerator<Cells> {
    for await (const f of vf.features(sheet)) {
      done++
      yield cellsOf(f.props)
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
    progress: () => ({ done, total }),
    close: () => vf.close(),
  }
}
