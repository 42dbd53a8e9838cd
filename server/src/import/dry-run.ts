import { formatCrs, projectorFor } from './crs.ts'
import type { ImportOptions } from './import-file.ts'
import type { PreparedRow } from './kinds/kind.ts'
import { prepareImport } from './prepare.ts'
import { readRows, type ImportProgress, type RowCounts } from './read-rows.ts'
import type { TextOutcome } from './readers/text.ts'
import { crsLine, encodingLines, formatRejections, personalLines } from './report.ts'
import type { CrsFrom } from './resolve-crs.ts'

export type DryRunReport = RowCounts & {
  datasetId: string
  crs: string
  crsFrom: CrsFrom
  crsSource?: string | undefined
  warnings: string[]
  text: TextOutcome | null | undefined
  personalColumns: string[]
  unit: 'dòng' | 'đối tượng'
  /** Each field of the kind and where its value comes from: a column of the file, --set, --province, or nowhere. */
  mapping: { field: string; label: string; from: string | null }[]
  /** The first rows as they would be stored. */
  preview: PreparedRow[]
}

const PREVIEW_ROWS = 5

/**
 * Reads the whole file as the import would (CRS, encoding, columns, every row mapped, checked and
 * placed in WGS84) without opening the database: nothing is written, and it runs beside a server on
 * the embedded database. Geometry repairs (ST_MakeValid) are the database's and happen on import.
 */
export async function dryRunImport(
  options: ImportOptions,
  onProgress: (p: ImportProgress) => void = () => {},
): Promise<DryRunReport> {
  const p = await prepareImport(options)
  try {
    const handler = p.kind.create({
      datasetId: p.datasetId,
      crs: p.crs,
      project: projectorFor(p.crs),
      source: p.source,
      date: p.dataDate,
      priceUnit: p.priceUnit,
      priceUnitGiven: p.priceUnitGiven,
    })
    const preview: PreparedRow[] = []
    let firstColumns: Record<string, string | undefined> | null = null
    const reader = p.reader
    // The column mapping shown is the one the first record resolves to.
    const records = reader.records
    reader.records = (async function* () {
      for await (const rec of records) {
        if (!firstColumns && !rec.error) firstColumns = p.fieldsOf.columnsFor(p.personal.strip(rec.props))
        yield rec
      }
    })()
    const counts = await readRows(p, handler, {
      batchSize: options.batchSize ?? 2000,
      flush: async () => {
        const rows = handler.drain()
        preview.push(...rows.slice(0, PREVIEW_ROWS - preview.length))
        return { inserted: rows.length, repaired: 0, rejected: [] }
      },
      onProgress,
    })
    const resolved: Record<string, string | undefined> = firstColumns ?? {}
    const mapping = Object.entries(p.kind.fields).map(([field, def]) => ({
      field,
      label: def.label,
      from:
        options.set?.[field] !== undefined
          ? `--set ${field}=${options.set[field]}`
          : resolved[field] !== undefined
            ? `cột ${resolved[field]}`
            : p.given.has(field)
              ? '--province'
              : null,
    }))
    return {
      ...counts,
      datasetId: p.datasetId,
      crs: formatCrs(p.crs),
      crsFrom: p.crsFrom,
      crsSource: p.crsFrom === 'file' ? reader.crsSource : undefined,
      warnings: p.warnings,
      text: reader.text?.(),
      personalColumns: p.personal.dropped(),
      unit: reader.unit,
      mapping,
      preview,
    }
  } finally {
    await p.reader.close()
  }
}

const brief = (v: unknown): string => {
  if (v === null || v === undefined || v === '') return '—'
  if (Array.isArray(v)) return v.map(brief).join(', ')
  // A land-use part: its code, and its area when the file gives one.
  if (typeof v === 'object' && 'code' in v) {
    const { code, area } = v as { code: unknown; area?: unknown }
    return typeof area === 'number' ? `${String(code)} ${area} m²` : String(code)
  }
  return typeof v === 'object' ? JSON.stringify(v) : String(v)
}

function firstPoint(g: PreparedRow['geometry']): string | null {
  let c = (g as { coordinates?: unknown } | undefined)?.coordinates
  while (Array.isArray(c) && Array.isArray(c[0])) c = c[0]
  return Array.isArray(c) && typeof c[0] === 'number' && typeof c[1] === 'number'
    ? `${c[0].toFixed(6)}, ${c[1].toFixed(6)}`
    : null
}

/** The dry run as lines for a person. */
export function formatDryRun(r: DryRunReport): string[] {
  const crs = crsLine(r)
  const rows = r.preview.map((row) => {
    const { n, geometry, ...values } = row
    const at = firstPoint(geometry)
    const fields = Object.entries(values)
      .map(([k, v]) => `${k}=${brief(v)}`)
      .join(' · ')
    return `  ${r.unit} ${n}: ${fields}${at ? ` · điểm đầu ${at} (kinh độ, vĩ độ WGS84)` : ''}`
  })
  return [
    `Chạy thử, không ghi gì: bộ dữ liệu "${r.datasetId}"${crs ? `, ${crs}` : ''}.`,
    ...encodingLines(r.text),
    ...personalLines(r.personalColumns),
    ...r.warnings.map((w) => `Cảnh báo: ${w}`),
    'Cột dùng cho từng trường:',
    ...r.mapping.map((m) => `  ${m.label}: ${m.from ?? 'không có'}`),
    `Đọc ${r.read} ${r.unit}; sẽ ghi ${r.inserted} dòng; sẽ loại ${r.rejected} (hình học tự cắt được sửa khi nhập thật).`,
    ...(rows.length > 0 ? [`${rows.length} dòng đầu như sẽ lưu:`, ...rows] : []),
    ...formatRejections(r.rejections, r.unit, r.rejected),
  ]
}
