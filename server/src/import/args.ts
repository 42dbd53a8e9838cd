import { parseArgs } from 'node:util'
import { parseCrs } from './crs.ts'
import type { ImportOptions } from './import-file.ts'
import { datasetIdPattern } from './prepare.ts'
import { kinds } from './kinds/index.ts'
import { importKinds, type ImportKind } from './types.ts'
import { isoDate } from './values.ts'

export const usage =
  'Cách dùng / Usage: npm run import -- <tệp/file> --kind parcels|planning|roads|prices|comparables|areas ' +
  '[--crs EPSG:4326|vn2000:<kinh tuyến trục/meridian>|EPSG:9210 | --province "<tỉnh/province>"] [--layer <lớp/layer>] [--sheet <trang tính/sheet>] --source "…" --date YYYY-MM-DD ' +
  '[--map trường=cột…] [--set trường=giá trị…] [--name "…"] [--dataset id] [--encoding utf-8|tcvn3|vni|windows-1258] [--price-unit 1000] [--dry-run]\n' +
  '  npm run import -- <tệp/file> --list-layers\n' +
  '  npm run import -- <bản quét/scan> --kind overlay --name "…" --plan-level QHPK|QHCT|QHC --decision-no "…" --approved-at YYYY-MM-DD [--crs …] [--gcp cột,dòng,X,Y …]\n' +
  '  npm run import -- <tệp/file>.osm.pbf --kind basemap [--id …] [--name "…"] [--source "…"] [--date YYYY-MM-DD]'

/** A command line that cannot run; the CLI prints it with the usage line and exits with code 2. */
export class UsageError extends Error {
  override name = 'UsageError'
}

export type ParsedArgs =
  { help: true } | { help: false; listLayers: string } | { help: false; options: ImportOptions; dryRun: boolean }

function pairs(values: string[] | undefined, flag: string, kind: ImportKind): Record<string, string> {
  const out: Record<string, string> = {}
  for (const v of values ?? []) {
    const eq = v.indexOf('=')
    const field = eq > 0 ? v.slice(0, eq).trim() : ''
    if (!field)
      throw new UsageError(`${flag} cần dạng trường=giá trị / ${flag} needs field=value: ${JSON.stringify(v)}`)
    if (!Object.hasOwn(kinds[kind].fields, field)) {
      throw new UsageError(
        `${flag}: không có trường "${field}" cho --kind ${kind} / no field "${field}" for --kind ${kind}; các trường / fields: ${Object.keys(kinds[kind].fields).join(', ')}`,
      )
    }
    out[field] = v.slice(eq + 1).trim()
  }
  return out
}

/** Reads the import command line; every mistake is a UsageError naming the option in Vietnamese and English. */
export function parseImportArgs(argv: string[]): ParsedArgs {
  let parsed: ReturnType<typeof parse>
  try {
    parsed = parse(argv)
  } catch (err) {
    throw new UsageError(
      `tùy chọn không hợp lệ / bad option: ${(err as Error).message.replace(/\s*To specify.*$/s, '')}`,
    )
  }
  const { values: v, positionals } = parsed
  if (v.help) return { help: true }
  if (positionals.length !== 1) {
    throw new UsageError(
      positionals.length === 0
        ? 'thiếu tệp cần nhập / missing the file to import'
        : `chỉ nhập một tệp mỗi lần / one file at a time: ${positionals.join(' ')}`,
    )
  }
  if (v['list-layers']) return { help: false, listLayers: positionals[0]! }
  if (!v.kind) throw new UsageError('thiếu --kind / missing --kind')
  if (!(importKinds as readonly string[]).includes(v.kind))
    throw new UsageError(`--kind không hợp lệ / invalid --kind: ${JSON.stringify(v.kind)}`)
  const kind = v.kind as ImportKind
  const crs = v.crs === undefined ? undefined : parseCrs(v.crs)
  if (crs === null)
    throw new UsageError(
      `--crs không hợp lệ / invalid --crs: ${JSON.stringify(v.crs)} (EPSG:4326, vn2000:105.75, EPSG:3405 …)`,
    )
  if (!v.source?.trim()) throw new UsageError('thiếu --source / missing --source')
  if (!v.date) throw new UsageError('thiếu --date / missing --date')
  if (!isoDate(v.date))
    throw new UsageError(
      `--date không phải ngày YYYY-MM-DD / --date is not a YYYY-MM-DD date: ${JSON.stringify(v.date)}`,
    )
  if (v.dataset !== undefined && !datasetIdPattern.test(v.dataset)) {
    throw new UsageError(
      `--dataset chỉ gồm chữ, số, . _ - / --dataset takes letters, digits, . _ -: ${JSON.stringify(v.dataset)}`,
    )
  }
  let priceUnit: number | undefined
  if (v['price-unit'] !== undefined) {
    priceUnit = Number(v['price-unit'])
    if (!(priceUnit > 0))
      throw new UsageError(
        `--price-unit phải là số dương / must be a positive number: ${JSON.stringify(v['price-unit'])}`,
      )
  }
  return {
    help: false,
    dryRun: v['dry-run'] === true,
    options: {
      file: positionals[0]!,
      kind,
      crs,
      source: v.source,
      date: v.date,
      name: v.name,
      datasetId: v.dataset,
      map: pairs(v.map, '--map', kind),
      set: pairs(v.set, '--set', kind),
      encoding: v.encoding,
      province: v.province,
      layer: v.layer,
      sheet: v.sheet,
      priceUnit,
    },
  }
}

function parse(argv: string[]) {
  return parseArgs({
    args: argv,
    allowPositionals: true,
    strict: true,
    options: {
      kind: { type: 'string' },
      crs: { type: 'string' },
      source: { type: 'string' },
      date: { type: 'string' },
      map: { type: 'string', multiple: true },
      set: { type: 'string', multiple: true },
      name: { type: 'string' },
      dataset: { type: 'string' },
      encoding: { type: 'string' },
      province: { type: 'string' },
      layer: { type: 'string' },
      sheet: { type: 'string' },
      'list-layers': { type: 'boolean' },
      'dry-run': { type: 'boolean' },
      'price-unit': { type: 'string' },
      help: { type: 'boolean', short: 'h' },
    },
  })
}

/** The --kind of a command line (`--kind overlay` or `--kind=overlay`), read before its own parser: each kind of import has its own options. */
export function kindOf(argv: string[]): string | undefined {
  for (let i = 0; i < argv.length; i++) {
    const a = argv[i]!
    if (a === '--kind') return argv[i + 1]
    if (a.startsWith('--kind=')) return a.slice('--kind='.length)
  }
  return undefined
}
