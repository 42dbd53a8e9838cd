import { readFileSync, unlinkSync, writeFileSync } from 'node:fs'
import { hostname } from 'node:os'
import { DatabaseUnavailableError } from './database.ts'

/**
 * The embedded database has one owner. PGlite keeps the whole database in the memory of the process
 * that opened it and writes it back to the folder on its own schedule: a second process (an import
 * beside `npm start`) works on its own copy, reports success, and one of the two copies is lost. So
 * whoever opens the folder first claims it with a lock file beside it (`<dir>.lock`); the next one is
 * refused with one line. A lock whose process is gone (a SIGKILL) is stale: it is detected and
 * replaced, never trusted.
 *
 * It extends DatabaseUnavailableError so a server starting while the previous one still shuts down
 * waits for it (the server retries unavailable databases); the command-line tools refuse at once.
 */
export class DatabaseInUseError extends DatabaseUnavailableError {
  override name = 'DatabaseInUseError'
}

type Owner = { pid: number; host: string; since: string; command: string }

function alive(pid: number): boolean {
  try {
    process.kill(pid, 0)
    return true
  } catch (err) {
    // EPERM: the process exists but belongs to someone else.
    return (err as NodeJS.ErrnoException).code === 'EPERM'
  }
}

function readOwner(lock: string): Owner | null {
  try {
    const o = JSON.parse(readFileSync(lock, 'utf8')) as Partial<Owner>
    return typeof o.pid === 'number'
      ? { pid: o.pid, host: String(o.host ?? ''), since: String(o.since ?? ''), command: String(o.command ?? '') }
      : null
  } catch {
    return null
  }
}

/** Claims the embedded database folder for this process; `release` gives it up (also done at exit). */
export function claimEmbeddedDatabase(dir: string): { release(): void } {
  const lock = `${dir}.lock`
  const me: Owner = {
    pid: process.pid,
    host: hostname(),
    since: new Date().toISOString(),
    command: process.argv.slice(1, 3).join(' '),
  }
  for (let attempt = 0; ; attempt++) {
    try {
      writeFileSync(lock, JSON.stringify(me), { flag: 'wx', mode: 0o600 })
      break
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code !== 'EEXIST' || attempt > 2) throw err
      const owner = readOwner(lock)
      if (owner?.pid === process.pid && owner.host === me.host) return { release: () => {} }
      // A lock from another machine (a shared folder) cannot be checked here: it is taken as held.
      if (owner && (owner.host !== me.host || alive(owner.pid))) {
        throw new DatabaseInUseError(
          `Cơ sở dữ liệu nhúng (${dir}) đang được tiến trình ${owner.pid}${owner.host !== me.host ? ` trên máy ${owner.host}` : ''} mở từ ${owner.since} (${owner.command || 'máy chủ'}); ` +
            'hãy dừng máy chủ rồi chạy lại lệnh này, hoặc dùng PostgreSQL (DATABASE_URL) để nhập khi máy chủ đang chạy. Không có gì thay đổi.',
        )
      }
      // Stale (its process is gone) or unreadable: replace it.
      try {
        unlinkSync(lock)
      } catch {}
    }
  }
  let held = true
  const release = () => {
    if (!held) return
    held = false
    process.off('exit', release)
    if (readOwner(lock)?.pid === process.pid) {
      try {
        unlinkSync(lock)
      } catch {}
    }
  }
  process.on('exit', release)
  return { release }
}
