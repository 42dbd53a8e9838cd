import { foldVietnamese } from '#core/text/fold.ts'
import { ImportError } from './errors.ts'

/**
 * A field the importer fills, with the column names it looks for when no --map is given. `required`
 * fields are ones every row needs: a file with no column for one stops at once with one line (rather
 * than refusing every row), unless --set or --province gives it.
 */
export type FieldDef = { columns: string[]; label: string; required?: true }
export type FieldDefs = Record<string, FieldDef>

export type FieldGetter = (field: string) => unknown

// Column names compare case-, accent- and separator-insensitively: "Số tờ", "SO_TO" and "so to" match.
export const columnKey = (column: string) => foldVietnamese(column).replace(/[\s_\-.]+/g, '')

/** A .dbf cuts column names to 10 characters: `SoHieuToBa` is `SoHieuToBanDo` as ViLIS wrote it. */
const DBF_NAME_LENGTH = 10

/** `SoHieuToBa` names `SoHieuToBanDo`: the same key, or a name cut at the .dbf's 10 characters that begins it. */
function namesColumn(fileColumn: string, known: string): boolean {
  const a = columnKey(fileColumn)
  const b = columnKey(known)
  return a === b || (fileColumn.length === DBF_NAME_LENGTH && b.length > a.length && b.startsWith(a))
}

/**
 * Columns holding the owner's name or identity papers (tên chủ sử dụng, CMND/CCCD): personal data
 * (Decree 13/2023/NĐ-CP) that a public lookup must not store or show. They are dropped as records are
 * read, never mapped, and the summary names them as left out.
 */
const personalColumns = [
  'TenChu',
  'ten_chu',
  'TenChuSuDung',
  'chu_su_dung',
  'nguoi_su_dung',
  'chu_so_huu',
  'ten_chu_so_huu',
  'HoTen',
  'ho_ten',
  'HoTenChu',
  'owner',
  'owner_name',
  'NamSinh',
  'nam_sinh',
  'cmnd',
  'so_cmnd',
  'cccd',
  'so_cccd',
  'so_giay_to',
  'DiaChiChu',
  'dia_chi_chu',
]

export const isPersonalColumn = (column: string): boolean => personalColumns.some((c) => namesColumn(column, c))

/**
 * Drops the owner columns of a record, remembering their names for the summary. Everything after this
 * (mapping, the dry run's preview, messages) never sees them.
 */
export function createPersonalFilter(): {
  strip(props: Record<string, unknown>): Record<string, unknown>
  dropped(): string[]
} {
  const dropped = new Set<string>()
  const verdicts = new Map<string, boolean>()
  const personal = (k: string) => {
    let v = verdicts.get(k)
    if (v === undefined) verdicts.set(k, (v = isPersonalColumn(k)))
    return v
  }
  return {
    strip(props) {
      const keys = Object.keys(props)
      if (!keys.some(personal)) return props
      const out: Record<string, unknown> = {}
      for (const k of keys) {
        if (personal(k)) dropped.add(k)
        else out[k] = props[k]
      }
      return out
    },
    dropped: () => [...dropped],
  }
}

export type FieldReader = {
  (props: Record<string, unknown>): FieldGetter
  /** The column each field is read from in a record with these columns (undefined: none). */
  columnsFor(props: Record<string, unknown>): Record<string, string | undefined>
}

/**
 * Builds the per-record lookup of mapped fields. `map` names the column for a field (--map
 * field=column); `set` gives a field one value for every row (--set field=value) and wins over both;
 * `fallback` fills a field a row leaves blank or has no column for (--province).
 */
export function createFieldReader(
  fields: FieldDefs,
  map: Record<string, string> = {},
  set: Record<string, string> = {},
  fallback: Record<string, string> = {},
): FieldReader {
  for (const f of [...Object.keys(map), ...Object.keys(set)]) {
    if (!Object.hasOwn(fields, f)) {
      throw new ImportError(
        `Trường "${f}" không có cho loại dữ liệu này; các trường: ${Object.keys(fields).join(', ')}`,
      )
    }
  }
  for (const [f, column] of Object.entries(map)) {
    if (isPersonalColumn(column))
      throw new ImportError(
        `Cột ${JSON.stringify(column)} (--map ${f}=${column}) là tên hoặc giấy tờ của chủ sử dụng, dữ liệu cá nhân không được lưu; hãy chọn cột khác`,
      )
  }
  const wanted = Object.entries(fields).map(([f, def]) => [f, map[f] !== undefined ? [map[f]] : def.columns] as const)
  // Most files give every feature the same columns: resolve once per distinct column set.
  const cache = new Map<string, Record<string, string | undefined>>()
  const resolve = (props: Record<string, unknown>) => {
    const names = Object.keys(props)
    const sig = names.join('\u0000')
    let resolved = cache.get(sig)
    if (!resolved) {
      resolved = {}
      for (const [f, columns] of wanted) {
        resolved[f] =
          columns.find((c) => Object.hasOwn(props, c)) ??
          columns.map((c) => names.find((n) => namesColumn(n, c))).find((c) => c !== undefined)
      }
      if (cache.size > 1000) cache.clear()
      cache.set(sig, resolved)
    }
    return resolved
  }
  const reader = (props: Record<string, unknown>): FieldGetter => {
    const resolved = resolve(props)
    return (field) => {
      if (set[field] !== undefined) return set[field]
      const column = resolved[field]
      const value = column === undefined ? undefined : props[column]
      return (value === undefined || value === null || value === '') && Object.hasOwn(fallback, field)
        ? fallback[field]
        : value
    }
  }
  return Object.assign(reader, { columnsFor: resolve })
}

/**
 * The required fields a file gives no column for, when neither --set nor --province fills them; each
 * as one line naming the file's columns and the option that would fix it (a column whose name begins
 * like a known one is offered for --map).
 */
export function missingColumns(
  fields: FieldDefs,
  resolved: Record<string, string | undefined>,
  columns: string[],
  given: ReadonlySet<string>,
): string | null {
  const missing = Object.entries(fields).filter(([f, def]) => def.required && !given.has(f) && !resolved[f])
  if (missing.length === 0) return null
  const used = new Set(Object.values(resolved))
  const free = columns.filter((c) => !used.has(c))
  const fixes = missing.map(([f, def]) => {
    const guess = free.find((c) =>
      def.columns.some((k) => {
        const [a, b] = [columnKey(c), columnKey(k)]
        return Math.min(a.length, b.length) >= 4 && (a.startsWith(b) || b.startsWith(a))
      }),
    )
    return guess
      ? `--map ${f}=${guess.includes(' ') ? JSON.stringify(guess) : guess}`
      : `--map ${f}=<tên cột> hoặc --set ${f}="<giá trị cho mọi dòng>"`
  })
  return (
    `Tệp không có cột ${missing.map(([, def]) => def.label).join(', ')}; ` +
    `các cột của tệp: ${columns.length > 0 ? columns.join(', ') : '(không có)'}; hãy thêm ${fixes.join('; ')}`
  )
}
