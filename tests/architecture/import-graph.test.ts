import { describe, expect, it } from 'vitest'
import { buildImportGraph, featurePairsBothWays, importCycles, type ImportGraph } from './import-graph.ts'

const graph = buildImportGraph()

describe('the import graph', () => {
  it('reads the repository: hundreds of files and their imports', () => {
    expect(graph.size).toBeGreaterThan(300)
    expect(graph.get('src/main.tsx')).toContain('src/app/App.tsx')
    // `#core/...` resolves like a relative path.
    expect([...graph.values()].flat()).toContain('core/contract/envelope.ts')
  })

  it('has no import circle among the files of core, src, sw and server', () => {
    expect(importCycles(graph)).toEqual([])
  })

  it('has no pair of features that import each other', () => {
    expect(featurePairsBothWays(graph)).toEqual([])
  })

  it('finds a circle and a two-way feature pair when there is one', () => {
    const bad: ImportGraph = new Map([
      ['src/features/a/x.ts', ['src/features/b/index.ts']],
      ['src/features/b/index.ts', ['src/features/b/y.ts']],
      ['src/features/b/y.ts', ['src/features/a/x.ts']],
    ])
    expect(importCycles(bad)).toEqual([['src/features/a/x.ts', 'src/features/b/index.ts', 'src/features/b/y.ts']])
    expect(featurePairsBothWays(bad)).toEqual(['a→b'])
  })
})
