import { foldVietnamese } from '#core/text/fold.ts'
import { ImportError } from './errors.ts'

/** A field the importer fills, with the column names it looks for when no --map is given. */
export type FieldDef = { columns: string[]; label: string }
export type FieldDefs = Record<string, FieldDef>

export type FieldGetter = (field: string) => unknown

// Column names compare case-, accent- and separator-insensitively: "Số tờ", "SO_TO" and "so to" match.
export const columnKey = (column: string) => foldVietnamese(column).replace(/[\s_\-.]+/g, '')

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
): (props: Record<string, unknown>) => FieldGetter {
  for (const f of [...Object.keys(map), ...Object.keys(set)]) {
    if (!Object.hasOwn(fields, f)) {
      throw new ImportError(
        `Trường "${f}" không có cho loại dữ liệu này; các trường: ${Object.keys(fields).join(', ')}`,
      )
    }
  }
  const wanted = Object.fromEntries(
    Object.entries(fields).map(([f, def]) => [f, map[f] !== undefined ? [map[f]] : def.columns]),
  )
  // Most files give every feature the same columns: resolve once per distinct column set.
  const cache = new Map<string, Record<string, string | undefined>>()
  const resolve = (props: Record<string, unknown>) => {
    const names = Object.keys(props)
    const sig = names.join('\u0000')
    let resolved = cache.get(sig)
    if (!resolved) {
      const byKey = new Map<string, string>()
      for (const n of names) if (!byKey.has(columnKey(n))) byKey.set(columnKey(n), n)
      resolved = {}
      for (const [f, columns] of Object.entries(wanted)) {
        const hit =
          columns.find((c) => Object.hasOwn(props, c)) ??
          columns.map((c) => byKey.get(columnKey(c))).find((c) => c !== undefined)
        resolved[f] = hit
      }
      if (cache.size > 1000) cache.clear()
      cache.set(sig, resolved)
    }
    return resolved
  }
  return (props) => {
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
}
