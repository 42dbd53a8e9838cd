import { ConfigError, loadConfig, type Config } from '../config.ts'
import { openDatabase } from '../db/index.ts'
import { DatabaseInUseError } from '../db/owner-lock.ts'
import { migrate } from '../db/migrate.ts'
import { kindOf, parseImportArgs, usage, UsageError, type ParsedArgs } from '../import/args.ts'
import { ImportError } from '../import/errors.ts'
import { dryRunImport, formatDryRun } from '../import/dry-run.ts'
import { importFile } from '../import/import-file.ts'
import { listLayers } from '../import/readers/index.ts'
import { parseEncodingOption } from '../import/vietnamese-encodings.ts'
import { createProgressBar, formatRejections, formatSummary } from '../import/report.ts'
import { keepFilesPrivate } from '../security/private-files.ts'

keepFilesPrivate()

// Scanned plans (--kind overlay) have their own options and importer (server/src/overlays); OpenStreetMap
// extracts (--kind basemap) are read whole, every layer, by theirs (server/src/basemap). Each is loaded
// only for its kind: the overlay importer's modules alone took seconds to load before every import
// (docs/performance.md, "Import").
const special = kindOf(process.argv.slice(2))
if (special === 'overlay') process.exit(await (await import('../overlays/cli.ts')).runRasterKind(process.argv.slice(2)))
if (special === 'basemap') process.exit(await (await import('../basemap/cli.ts')).runBasemapKind(process.argv.slice(2)))

// `npm run import -- <file> --kind … --source … --date …`: one file into one dataset, all or nothing.
// Exit codes: 0 imported, 1 the import failed and changed nothing, 2 the command line is wrong.
let args: ParsedArgs
try {
  args = parseImportArgs(process.argv.slice(2))
} catch (err) {
  if (!(err instanceof UsageError)) throw err
  process.stderr.write(`Lỗi / Error: ${err.message}\n${usage}\n`)
  process.exit(2)
}
if (args.help) {
  process.stdout.write(`${usage}\nXem docs/importing.md / See docs/importing.md\n`)
  process.exit(0)
}
if ('listLayers' in args) {
  try {
    process.stdout.write((await listLayers(args.listLayers)).join('\n') + '\n')
    process.exit(0)
  } catch (err) {
    process.stderr.write(`Lỗi / Error: ${(err as Error).message}\n`)
    process.exit(1)
  }
}

// A wrong --encoding is known before any database is opened.
if (args.options.encoding !== undefined) {
  try {
    parseEncodingOption(args.options.encoding)
  } catch (err) {
    if (!(err instanceof ImportError)) throw err
    process.stderr.write(`Không nhập được: ${err.message}\n`)
    process.exit(1)
  }
}

// A dry run reads the whole file and writes nothing, so it needs no database.
if (args.dryRun) {
  const bar = createProgressBar(process.stderr)
  try {
    const report = await dryRunImport(args.options, bar.update)
    bar.finish()
    process.stdout.write(formatDryRun(report).join('\n') + '\n')
    process.exit(0)
  } catch (err) {
    bar.finish()
    if (!(err instanceof ImportError)) throw err
    const lines = [`Chạy thử dừng: ${err.message}`, ...formatRejections(err.rejections, err.unit, err.rejectedCount)]
    process.stderr.write(lines.join('\n') + '\n')
    process.exit(1)
  }
}

let config: Config
try {
  config = loadConfig()
} catch (err) {
  if (!(err instanceof ConfigError)) throw err
  process.stderr.write(`Lỗi cấu hình / Configuration error: ${err.message}\n`)
  process.exit(1)
}
let db: Awaited<ReturnType<typeof openDatabase>>
try {
  db = await openDatabase(config)
} catch (err) {
  if (!(err instanceof DatabaseInUseError)) throw err
  process.stderr.write(`Không nhập được: ${err.message}\n`)
  process.exit(1)
}
const bar = createProgressBar(process.stderr)
let code = 0
try {
  await migrate(db)
  const summary = await importFile(db, args.options, bar.update)
  bar.finish()
  process.stdout.write(formatSummary(summary).join('\n') + '\n')
} catch (err) {
  bar.finish()
  code = 1
  if (err instanceof ImportError) {
    const lines = [
      `Không nhập được, cơ sở dữ liệu không thay đổi: ${err.message}`,
      ...formatRejections(err.rejections, err.unit, err.rejectedCount),
    ]
    process.stderr.write(lines.join('\n') + '\n')
  } else {
    process.stderr.write(`Lỗi khi nhập, cơ sở dữ liệu không thay đổi: ${(err as Error).stack ?? String(err)}\n`)
  }
} finally {
  await db.close()
}
process.exit(code)
