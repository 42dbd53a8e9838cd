import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs'
import { dirname, join, relative, resolve } from 'node:path'

/** The repository's own imports: file → files it imports (relative paths and `#core/...`), static and dynamic alike. */
export type ImportGraph = Map<string, string[]>

export const repoRoot = resolve(import.meta.dirname, '../..')
const roots = ['core', 'src', 'sw', 'server']
const source = /\.(ts|tsx)$/
const specifiers =
  /(?:^|[^\w.$])(?:import|export)\s+(?:type\s+)?(?:[\w*${}\s,]+\s+from\s+)?['"]([^'"]+)['"]|import\(\s*['"]([^'"]+)['"]\s*\)/g

function filesUnder(dir: string): string[] {
  if (!existsSync(dir)) return []
  return readdirSync(dir).flatMap((name) => {
    const full = join(dir, name)
    if (name === 'node_modules' || name === 'dist') return []
    return statSync(full).isDirectory() ? filesUnder(full) : source.test(name) && !name.endsWith('.d.ts') ? [full] : []
  })
}

function resolveSpecifier(from: string, spec: string): string | null {
  const target = spec.startsWith('#core/')
    ? join(repoRoot, 'core', spec.slice('#core/'.length))
    : spec.startsWith('.')
      ? resolve(dirname(from), spec)
      : null
  return target && existsSync(target) && statSync(target).isFile() ? target : null
}

/** Reads every source file under core/, src/, sw/ and server/ (paths relative to the repository). */
export function buildImportGraph(): ImportGraph {
  const graph: ImportGraph = new Map()
  for (const file of roots.flatMap((r) => filesUnder(join(repoRoot, r)))) {
    const text = readFileSync(file, 'utf8')
    const targets = new Set<string>()
    for (const m of text.matchAll(specifiers)) {
      const target = resolveSpecifier(file, (m[1] ?? m[2])!)
      if (target) targets.add(relative(repoRoot, target))
    }
    graph.set(relative(repoRoot, file), [...targets])
  }
  return graph
}

/** Every import circle (strongly connected group of more than one file, or a file importing itself). */
export function importCycles(graph: ImportGraph): string[][] {
  let next = 0
  const index = new Map<string, number>()
  const low = new Map<string, number>()
  const stack: string[] = []
  const onStack = new Set<string>()
  const cycles: string[][] = []
  const visit = (v: string) => {
    index.set(v, next)
    low.set(v, next++)
    stack.push(v)
    onStack.add(v)
    for (const w of graph.get(v) ?? []) {
      if (!index.has(w)) {
        visit(w)
        low.set(v, Math.min(low.get(v)!, low.get(w)!))
      } else if (onStack.has(w)) low.set(v, Math.min(low.get(v)!, index.get(w)!))
    }
    if (low.get(v) !== index.get(v)) return
    const group: string[] = []
    let w: string
    do {
      w = stack.pop()!
      onStack.delete(w)
      group.push(w)
    } while (w !== v)
    if (group.length > 1 || (graph.get(v) ?? []).includes(v)) cycles.push(group.sort())
  }
  for (const v of graph.keys()) if (!index.has(v)) visit(v)
  return cycles
}

const featureOf = (file: string) => /^src\/features\/([^/]+)\//.exec(file)?.[1]
const isTest = (file: string) => /\.test\.tsx?$|test-fixtures\.ts$/.test(file)

/** Pairs of features that import each other (tests, which may compose features, left out). */
export function featurePairsBothWays(graph: ImportGraph): string[] {
  const edges = new Set<string>()
  for (const [from, targets] of graph) {
    const a = featureOf(from)
    if (!a || isTest(from)) continue
    for (const t of targets) {
      const b = featureOf(t)
      if (b && b !== a) edges.add(`${a}→${b}`)
    }
  }
  return [...edges].filter((e) => {
    const [a, b] = e.split('→')
    return a! < b! && edges.has(`${b}→${a}`)
  })
}

/** A file that only tests read: test files and their helpers (test-*.ts, server/src/testing/ and fuzz/, fixtures). */
export const isTestSupport = (file: string) =>
  /\.test\.tsx?$|(^|\/)test-[\w-]+\.ts$|^server\/src\/(testing|fuzz)\/|\/fixtures\//.test(file)

/** The npm packages each source file under core/, src/, sw/ and server/ imports, by package name. */
export function packageImports(): Map<string, Set<string>> {
  const out = new Map<string, Set<string>>()
  for (const file of roots.flatMap((r) => filesUnder(join(repoRoot, r)))) {
    const names = new Set<string>()
    const text = readFileSync(file, 'utf8')
    // Packages loaded through createRequire (gdal3.js ships CommonJS only) count as imports too.
    for (const m of [
      ...text.matchAll(specifiers),
      ...text.matchAll(/(?:\brequire(?:\.resolve)?|\bcreateRequire\([^)]*\))\(\s*['"]([^'"]+)['"]\s*\)/g),
    ]) {
      const spec = (m[1] ?? m[2])!
      // Types are gone once compiled: `import type` needs no package at run time.
      if (/\b(import|export)\s+type\s/.test(m[0])) continue
      if (spec.startsWith('.') || spec.startsWith('#') || spec.startsWith('node:') || spec.startsWith('/')) continue
      const parts = spec.split('/')
      names.add(spec.startsWith('@') ? `${parts[0]}/${parts[1]}` : parts[0]!)
    }
    out.set(relative(repoRoot, file), names)
  }
  return out
}
