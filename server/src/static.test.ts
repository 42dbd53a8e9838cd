import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, describe, expect, it } from 'vitest'
import { loadStaticSite } from './static.ts'

describe('the built app the server serves', () => {
  const dir = mkdtempSync(join(tmpdir(), 'qh-static-'))
  afterAll(() => rmSync(dir, { recursive: true, force: true }))
  mkdirSync(join(dir, 'assets'))
  mkdirSync(join(dir, '.vite'))
  writeFileSync(join(dir, 'index.html'), '<!doctype html><title>x</title>')
  writeFileSync(join(dir, 'assets/index-A.js'), 'export {}')
  writeFileSync(join(dir, '.vite/manifest.json'), '{}')

  it('serves the pages and assets but not the build manifest', () => {
    const site = loadStaticSite(dir)
    expect([...site.keys()].sort()).toEqual(['/assets/index-A.js', '/index.html'])
    expect(site.get('/assets/index-A.js')?.cache).toBe('public, max-age=31536000, immutable')
  })
})
