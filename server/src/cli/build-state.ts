import { createHash } from 'node:crypto'
import { existsSync, readFileSync, readdirSync, statSync } from 'node:fs'
import { join, relative, resolve } from 'node:path'

export const root = resolve(import.meta.dirname, '../../..')
const inputs = [
  'index.html',
  'vite.config.ts',
  'manifest.webmanifest',
  'package-lock.json',
  'tsconfig.json',
  'src',
  'sw',
  'public',
]
const stampFile = join(root, 'dist/.source-hash')

function files(path: string): string[] {
  if (!existsSync(path)) return []
  if (!statSync(path).isDirectory()) return [path]
  return readdirSync(path)
    .sort()
    .flatMap((name) => (name.endsWith('.test.ts') || name.endsWith('.test.tsx') ? [] : files(join(path, name))))
}

/** A hash of everything the front-end build reads, so `npm start` rebuilds only when it changed. */
export function sourceHash(): string {
  const h = createHash('sha256')
  for (const input of inputs) {
    for (const file of files(join(root, input))) {
      h.update(relative(root, file))
      h.update(readFileSync(file))
    }
  }
  return h.digest('hex').slice(0, 16)
}

export function buildIsCurrent(hash = sourceHash()): boolean {
  return existsSync(join(root, 'dist/index.html')) && existsSync(stampFile) && readFileSync(stampFile, 'utf8') === hash
}

export { stampFile }
