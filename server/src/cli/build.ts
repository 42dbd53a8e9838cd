import { spawnSync } from 'node:child_process'
import { readdirSync, readFileSync, statSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { gzipSync } from 'node:zlib'
import { brotli, isCompressible } from '../static.ts'
import { buildIsCurrent, root, sourceHash, stampFile } from './build-state.ts'

/** Builds the front end into dist/ unless the sources are unchanged since the last build (or --force). */
export function buildApp(force = false): boolean {
  const hash = sourceHash()
  if (!force && buildIsCurrent(hash)) return false
  process.stdout.write('Đang build giao diện…\n')
  const res = spawnSync(process.execPath, [join(root, 'node_modules/vite/bin/vite.js'), 'build'], {
    cwd: root,
    stdio: 'inherit',
  })
  if (res.status !== 0) throw new Error(`vite build failed (exit ${res.status})`)
  precompress(join(root, 'dist'))
  writeFileSync(stampFile, hash)
  return true
}

/** Writes .br and .gz beside every text file, so the server starts without compressing anything. */
function precompress(dir: string): void {
  for (const name of readdirSync(dir)) {
    const file = join(dir, name)
    if (statSync(file).isDirectory()) {
      precompress(file)
      continue
    }
    const size = statSync(file).size
    if (/\.(br|gz)$/.test(name) || !isCompressible(file, size)) continue
    const body = readFileSync(file)
    writeFileSync(`${file}.br`, brotli(body))
    writeFileSync(`${file}.gz`, gzipSync(body, { level: 9 }))
  }
}

if (import.meta.main) {
  try {
    buildApp(process.argv.includes('--force'))
  } catch (err) {
    process.stderr.write(`${(err as Error).message}\n`)
    process.exit(1)
  }
}
