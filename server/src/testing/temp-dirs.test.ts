import { spawnSync } from 'node:child_process'
import { existsSync } from 'node:fs'
import { describe, expect, it } from 'vitest'

describe('temporary directories of test apps', () => {
  it('are gone once the process that made them has exited, with what was written in them', () => {
    const script = `
      import { writeFileSync } from 'node:fs'
      import { join } from 'node:path'
      import { tempDirUntilExit } from './server/src/testing/temp-dirs.ts'
      const dir = tempDirUntilExit('qh-temp-test-')
      writeFileSync(join(dir, 'outbox.eml'), 'x')
      console.log(dir)`
    const run = spawnSync(process.execPath, ['--input-type=module', '-e', script], { encoding: 'utf8' })
    expect(run.status, run.stderr).toBe(0)
    const dir = run.stdout.trim()
    expect(dir).toMatch(/qh-temp-test-/)
    expect(existsSync(dir)).toBe(false)
  })
})
