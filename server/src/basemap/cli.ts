import { statSync } from 'node:fs'
import { basename } from 'node:path'
import { parseArgs } from 'node:util'
import { foldVietnamese } from '#core/text/fold.ts'
import { vietnamDay } from '#core/time/vietnam-time.ts'
import { ConfigError, loadConfig } from '../config.ts'
import { openDatabase, type Database } from '../db/index.ts'
import { migrate } from '../db/migrate.ts'
import { UsageError } from '../import/args.ts'
import { ImportError } from '../import/errors.ts'
import { datasetIdPattern } from '../import/import-file.ts'
import { isoDate } from '../import/values.ts'
import { kindOf } from '../overlays/args.ts'
import { importOsmBasemap, type OsmImportOptions } from './import-osm.ts'

export const basemapUsage =
  'Cách dùng / Usage: npm run import -- <trích xuất>.osm.pbf --kind basemap [--province "…"] [--id …] [--name "…"] [--source "…"] [--date YYYY-MM-DD]'

const OSM_SOURCE = '© Những người đóng góp OpenStreetMap (ODbL)'

/** The `--kind basemap` command line; the data date defaults to the extract file's date (Vietnam time). */
export function parseBasemapArgs(argv: string[]): OsmImportOptions | { help: true } {
  let parsed
  try {
    parsed = parseArgs({
      args: argv,
      allowPositionals: true,
      strict: true,
      options: {
        kind: { type: 'string' },
        id: { type: 'string' },
        name: { type: 'string' },
        source: { type: 'string' },
        date: { type: 'string' },
        province: { type: 'string' },
        help: { type: 'boolean', short: 'h' },
      },
    })
  } catch (err) {
    throw new UsageError(
      `tùy chọn không hợp lệ / bad option: ${(err as Error).message.replace(/\s*To specify.*$/s, '')}`,
    )
  }
  const { values: v, positionals } = parsed
  if (v.help) return { help: true }
  const [file] = positionals
  if (!file || positionals.length !== 1)
    throw new UsageError(
      file ? 'chỉ nhập một tệp mỗi lần / one file at a time' : 'thiếu tệp OSM / missing the OSM extract',
    )
  const stem = foldVietnamese(basename(file).replace(/\.osm(\.pbf)?$/i, ''))
    .replace(/[^a-z0-9]+/g, '-')
    .replace(/^-+|-+$/g, '')
  const datasetId = v.id ?? `basemap-${stem || 'osm'}`.slice(0, 80)
  if (!datasetIdPattern.test(datasetId))
    throw new UsageError(`--id không hợp lệ / invalid --id: ${JSON.stringify(datasetId)} (chữ, số, . _ -)`)
  if (v.date !== undefined && !isoDate(v.date))
    throw new UsageError(`--date cần ngày YYYY-MM-DD / needs a YYYY-MM-DD date: ${JSON.stringify(v.date)}`)
  let date = v.date
  try {
    date ??= vietnamDay(statSync(file).mtime)
  } catch {
    date ??= ''
  }
  return {
    file,
    datasetId,
    name: v.name?.trim() || 'OpenStreetMap',
    source: v.source?.trim() || OSM_SOURCE,
    date,
    ...(v.province === undefined ? {} : { province: v.province }),
  }
}

/**
 * `npm run import -- <extract>.osm.pbf --kind basemap`. Returns the exit code (0 imported, 1 failed and
 * changed nothing, 2 wrong command line), or undefined when the command line is for another kind.
 */
export async function runBasemapKind(argv: string[]): Promise<number | undefined> {
  if (kindOf(argv) !== 'basemap') return undefined
  let opts
  try {
    opts = parseBasemapArgs(argv)
  } catch (err) {
    if (!(err instanceof UsageError)) throw err
    process.stderr.write(`Lỗi / Error: ${err.message}\n${basemapUsage}\n`)
    return 2
  }
  if ('help' in opts) {
    process.stdout.write(`${basemapUsage}\nXem docs/importing.md / See docs/importing.md\n`)
    return 0
  }
  let db: Database | undefined
  try {
    const config = loadConfig()
    db = await openDatabase(config)
    await migrate(db)
    const s = await importOsmBasemap(db, opts)
    const counts = Object.entries(s.counts)
      .map(([k, n]) => `${k} ${n.toLocaleString('vi-VN')}`)
      .join(', ')
    process.stdout.write(
      `Đã nhập bản đồ nền ${s.datasetId}${s.replaced ? ' (thay bản cũ cùng mã)' : ''}: ${counts}; ${s.seconds.toFixed(1)} s\n`,
    )
    process.stdout.write(
      s.streets.unplaced > 0
        ? `${s.streets.kept.toLocaleString('vi-VN')} đoạn đường có tên dùng cho bảng giá đất và tìm kiếm; ${s.streets.unplaced.toLocaleString('vi-VN')} đoạn chưa biết thuộc tỉnh nào chỉ được vẽ: thêm --province "<tỉnh/thành phố>" để dùng cả chúng\n`
        : `${s.streets.kept.toLocaleString('vi-VN')} đoạn đường có tên dùng cho bảng giá đất và tìm kiếm\n`,
    )
    return 0
  } catch (err) {
    if (err instanceof ConfigError) process.stderr.write(`Lỗi cấu hình / Configuration error: ${err.message}\n`)
    else if (err instanceof ImportError)
      process.stderr.write(`Không nhập được, cơ sở dữ liệu không thay đổi: ${err.message}\n`)
    else process.stderr.write(`Lỗi khi nhập, cơ sở dữ liệu không thay đổi: ${(err as Error).message ?? String(err)}\n`)
    return 1
  } finally {
    await db?.close()
  }
}
