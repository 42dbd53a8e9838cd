import { readFileSync } from 'node:fs'
import { join } from 'node:path'
import { describe, expect, it } from 'vitest'
import { isTestSupport, packageImports, repoRoot } from './import-graph.ts'

type Manifest = { dependencies?: Record<string, string>; peerDependencies?: Record<string, string> }
const manifest = (dir: string) => JSON.parse(readFileSync(join(dir, 'package.json'), 'utf8')) as Manifest
const own = manifest(repoRoot)
const dependencies = new Set(Object.keys(own.dependencies ?? {}))

/** Packages the app, the service worker and the server import when they run (tests and their helpers aside). */
function shipped(): Set<string> {
  const names = new Set<string>()
  for (const [file, imports] of packageImports()) if (!isTestSupport(file)) for (const n of imports) names.add(n)
  return names
}

describe('the dependencies in package.json', () => {
  it('hold every package the shipped code imports, so an install without dev dependencies still runs', () => {
    expect([...shipped()].filter((n) => !dependencies.has(n)).sort()).toEqual([])
  })

  it('hold no package the shipped code never imports, unless one it imports needs it beside it (a peer)', () => {
    const used = shipped()
    const peers = new Set(
      [...used].flatMap((n) => Object.keys(manifest(join(repoRoot, 'node_modules', n)).peerDependencies ?? {})),
    )
    expect([...dependencies].filter((d) => !used.has(d) && !peers.has(d)).sort()).toEqual([])
  })
})
