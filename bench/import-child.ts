/**
 * One import in a process of its own, as `npm run import` runs it, so its peak resident memory is the
 * import's alone: argv[2] is a JSON ImportOptions; prints one JSON line with the summary's counts, the
 * RSS once the database is open and the process's peak RSS (getrusage maxrss).
 */
import { loadConfig } from '../server/src/config.ts'
import { openDatabase } from '../server/src/db/index.ts'
import { migrate } from '../server/src/db/migrate.ts'
import { importFile, type ImportOptions } from '../server/src/import/import-file.ts'

const options = JSON.parse(process.argv[2] ?? '{}') as ImportOptions
const db = await openDatabase(loadConfig())
try {
  await migrate(db)
  const openRss = process.memoryUsage().rss
  const s = await importFile(db, options)
  const line = {
    read: s.read,
    inserted: s.inserted,
    rejected: s.rejected,
    seconds: s.seconds,
    openRss,
    peakRss: process.resourceUsage().maxRSS * 1024,
  }
  process.stdout.write(`${JSON.stringify(line)}\n`)
} finally {
  await db.close()
}
