import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'

const made: string[] = []
let hooked = false

/**
 * A fresh temporary directory removed when the test process exits: a test app's DATA_DIR (uploads, the
 * mail outbox) is used until the last test of the run, so it cannot go sooner, and must not stay after.
 */
export function tempDirUntilExit(prefix: string): string {
  if (!hooked) {
    hooked = true
    process.once('exit', () => {
      for (const dir of made.splice(0)) rmSync(dir, { recursive: true, force: true })
    })
  }
  const dir = mkdtempSync(join(tmpdir(), prefix))
  made.push(dir)
  return dir
}
