import { spawnSync } from 'node:child_process'
import { writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { buildIsCurrent, root, sourceHash, stampFile } from './build-state.ts'

/** Builds the front end into dist/ unless the sources are unchanged since the last build (or --force). */
export function buildApp(force = false): boolean {
  const hash = sourceHash()
  if (!force && buildIsCurrent(hash)) return false
  process.stdout.write('Đang build giao diện…\n')
  const res = spawnSync(process.execPath, [join(root, 'node_modules/vite/bin/vite.js'), 'build'], { cwd: root, stdio: 'inherit' })
  if (res.status !== 0) throw new Error(`vite build failed (exit ${res.status})`)
  writeFileSync(stampFile, hash)
  return true
}

if (import.meta.main) {
  try {
    buildApp(process.argv.includes('--force'))
  } catch (err) {
    process.stderr.write(`${(err as Error).message}\n`)
    process.exit(1)
  }
}
