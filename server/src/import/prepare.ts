import { basename, extname } from 'node:path'
import { resolveProvince, type Province } from '#core/geo/provinces.ts'
import { foldVietnamese } from '#core/text/fold.ts'
import { ImportError } from './errors.ts'
import { createFieldReader, createPersonalFilter, type FieldReader } from './fields.ts'
import { kinds } from './kinds/index.ts'
import type { Kind } from './kinds/kind.ts'
import { formatOf, openReader } from './readers/index.ts'
import type { Reader } from './readers/reader.ts'
import { resolveCrs, type CrsChoice } from './resolve-crs.ts'
import type { ImportKind, ImportOptions } from './types.ts'
import { isoDate } from './values.ts'

/** `parcels-ban-do-dia-chinh-phuong-1` from the kind and the file name. */
export function defaultDatasetId(kind: ImportKind, file: string): string {
  const stem = foldVietnamese(basename(file, extname(file)))
    .replace(/[^a-z0-9]+/g, '-')
    .replace(/^-+|-+$/g, '')
  return `${kind}-${stem || 'du-lieu'}`.slice(0, 80)
}

export const datasetIdPattern = /^[A-Za-z0-9][A-Za-z0-9._-]{0,79}$/

/** An import checked and opened: everything the write and the dry run share. */
export type PreparedImport = {
  kind: Kind
  dataDate: string
  source: string
  datasetId: string
  priceUnit: number
  /** True when --price-unit set it; otherwise a table's own unit line may. */
  priceUnitGiven: boolean
  province: Province | undefined
  reader: Reader
  fieldsOf: FieldReader
  personal: ReturnType<typeof createPersonalFilter>
  /** Fields --set or --province fill for every row. */
  given: ReadonlySet<string>
} & CrsChoice

/**
 * Checks the options (each mistake one line, before the file is opened), opens the file's reader and
 * decides the CRS. The caller closes `reader`.
 */
export async function prepareImport(options: ImportOptions): Promise<PreparedImport> {
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
  const labels = [...Object.values(kind.fields).flatMap((f) => f.columns), ...Object.values(options.map ?? {})]
  const reader = await openReader(options.file, {
    encoding: options.encoding,
    layer: options.layer,
    sheet: options.sheet,
    labels,
  })
  try {
    const crs = resolveCrs(reader, {
      crs: options.crs,
      province,
      file: options.file,
      hasCoordinates: kind.geometryTables.length > 0,
    })
    return {
      kind,
      dataDate,
      source,
      datasetId,
      priceUnit,
      priceUnitGiven: options.priceUnit !== undefined,
      province,
      reader,
      fieldsOf,
      personal: createPersonalFilter(),
      given: new Set([...Object.keys(options.set ?? {}), ...Object.keys(fallback)]),
      ...crs,
    }
  } catch (err) {
    await reader.close()
    throw err
  }
}
