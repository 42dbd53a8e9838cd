import { existsSync, mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { PREPARED_DATA_ENV } from './prepared-data.ts'

/**
 * Global setup of the projects whose files start servers (end-to-end, faults, load): one folder for the run's
 * prepared data directories, each made there when a file first needs it and copied by every later one. The test
 * files' processes inherit the variable naming it. tests/run-all.ts names one folder for all its steps instead.
 */
export default function setup(): (() => void) | undefined {
  const named = process.env[PREPARED_DATA_ENV]
  if (named && existsSync(named)) return undefined
  const dir = mkdtempSync(join(tmpdir(), 'qh-prepared-'))
  process.env[PREPARED_DATA_ENV] = dir
  return () => rmSync(dir, { recursive: true, force: true })
}
