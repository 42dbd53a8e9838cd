import { ConfigError, loadConfig } from '../config.ts'
import { openDatabase } from '../db/index.ts'
import { migrate } from '../db/migrate.ts'
import { DatabaseInUseError } from '../db/owner-lock.ts'
import { formatDataset, listDatasets, removeDataset } from '../import/datasets.ts'
import { ImportError } from '../import/errors.ts'
import { keepFilesPrivate } from '../security/private-files.ts'
import { formatTileStore, tileStoreStatus } from '../tiles/store-fill.ts'

keepFilesPrivate()

// `npm run datasets` lists the datasets; `npm run datasets -- remove <id>` removes one, all or nothing.
// Exit codes: 0 done, 1 nothing changed (unknown id, database in use or unreachable), 2 a wrong command line.
const usage = 'Cách dùng / Usage: npm run datasets [-- remove <mã bộ dữ liệu/dataset id>]'
const [command, ...rest] = process.argv.slice(2)
const fail = (line: string, code: number): never => {
  process.stderr.write(`${line}\n`)
  process.exit(code)
}
if (command === '--help' || command === '-h') {
  process.stdout.write(`${usage}\nXem docs/importing.md / See docs/importing.md\n`)
  process.exit(0)
}
if (command !== undefined && !(command === 'remove' && rest.length === 1 && rest[0])) {
  fail(
    `Lỗi / Error: ${command === 'remove' ? 'cần đúng một mã bộ dữ liệu / one dataset id' : `lệnh không hợp lệ / unknown command: ${JSON.stringify(command)}`}. ${usage}`,
    2,
  )
}

let db: Awaited<ReturnType<typeof openDatabase>>
try {
  db = await openDatabase(loadConfig())
} catch (err) {
  if (err instanceof ConfigError) fail(`Lỗi cấu hình / Configuration error: ${err.message}`, 1)
  if (err instanceof DatabaseInUseError) fail(`Không thực hiện được: ${err.message}`, 1)
  throw err
}
let code = 0
try {
  await migrate(db)
  if (command === 'remove') {
    const { removed, dataVersion } = await removeDataset(db, rest[0]!)
    process.stdout.write(
      `Đã xóa bộ dữ liệu "${removed.id}" (${removed.kind}, ${removed.rows} dòng). Phiên bản dữ liệu ${dataVersion} (bản đồ được làm mới).\n`,
    )
  } else {
    const all = await listDatasets(db)
    process.stdout.write(
      all.length === 0
        ? 'Chưa có bộ dữ liệu nào (npm run import hoặc npm run seed).\n'
        : all.map((d) => formatDataset(d).join('\n')).join('\n') + '\n',
    )
    const store = await tileStoreStatus(db)
    if (all.length > 0) process.stdout.write(`${formatTileStore(store)}\n`)
  }
} catch (err) {
  code = 1
  process.stderr.write(
    err instanceof ImportError
      ? `Không xóa được, cơ sở dữ liệu không thay đổi: ${err.message}\n`
      : `Lỗi, cơ sở dữ liệu không thay đổi: ${(err as Error).stack ?? String(err)}\n`,
  )
} finally {
  await db.close()
}
process.exit(code)
