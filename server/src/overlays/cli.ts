import { ConfigError, loadConfig } from '../config.ts'
import { openDatabase, type Database } from '../db/index.ts'
import { migrate } from '../db/migrate.ts'
import { UsageError } from '../import/args.ts'
import { ImportError } from '../import/errors.ts'
import { kindOf } from '../import/args.ts'
import { overlayUsage, parseOverlayArgs } from './args.ts'
import { prepareOverlay, type PreparedOverlay } from './import-overlay.ts'

const mb = (bytes: number) => (bytes / 1e6).toLocaleString('vi-VN', { maximumFractionDigits: 1 })

/**
 * `npm run import -- <scan> --kind overlay …`. Returns the exit code (0 imported, 1 failed and
 * changed nothing, 2 wrong command line), or undefined when the command line is for another kind.
 */
export async function runRasterKind(argv: string[]): Promise<number | undefined> {
  if (kindOf(argv) !== 'overlay') return undefined
  let opts
  try {
    opts = parseOverlayArgs(argv)
  } catch (err) {
    if (!(err instanceof UsageError)) throw err
    process.stderr.write(`Lỗi / Error: ${err.message}\n${overlayUsage}\n`)
    return 2
  }
  if ('help' in opts) {
    process.stdout.write(`${overlayUsage}\nXem docs/importing.md / See docs/importing.md\n`)
    return 0
  }
  let config
  try {
    config = loadConfig()
  } catch (err) {
    if (!(err instanceof ConfigError)) throw err
    process.stderr.write(`Lỗi cấu hình / Configuration error: ${err.message}\n`)
    return 1
  }
  let prepared: PreparedOverlay | undefined
  let db: Database | undefined
  try {
    // The scan is read and checked before the database is opened: bad input fails fast.
    prepared = await prepareOverlay({
      ...opts,
      dataDir: config.databaseUrl ? undefined : config.dataDir,
      log: (line) => process.stderr.write(`${line}\n`),
    })
    db = await openDatabase(config)
    await migrate(db)
    const s = await prepared.store(db)
    process.stdout.write(
      `Đã nhập bản đồ quy hoạch ${s.id}${s.replaced ? ' (thay bản cũ cùng mã)' : ''}: ảnh ${s.width} × ${s.height} px (${s.georef}, ${s.crs}), ` +
        `zoom ${s.minzoom}–${s.maxzoom}, ${s.tiles.toLocaleString('vi-VN')} ô, ${mb(s.bytes)} MB, ${s.seconds.toFixed(1)} s, bộ nhớ tối đa ${s.peakRssMb} MB\n`,
    )
    return 0
  } catch (err) {
    if (err instanceof ImportError) {
      process.stderr.write(`Không nhập được, cơ sở dữ liệu không thay đổi: ${err.message}\n`)
      return 1
    }
    process.stderr.write(`Lỗi khi nhập, cơ sở dữ liệu không thay đổi: ${(err as Error).message ?? String(err)}\n`)
    return 1
  } finally {
    await prepared?.close()
    await db?.close()
  }
}
