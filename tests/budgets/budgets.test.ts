import { existsSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { dirname, join, resolve } from 'node:path'
import { afterAll, describe, expect, it } from 'vitest'
import { parseHtml, readDist, readManifest, summariseDist, total } from '../../bench/lib/dist-chunks.ts'
import { budgets } from './budgets.ts'

const kB = (bytes: number) => Math.round(bytes / 100) / 10

describe('reading a Vite build', () => {
  const dir = mkdtempSync(join(tmpdir(), 'qh-budget-'))
  afterAll(() => rmSync(dir, { recursive: true, force: true }))
  const write = (file: string, body: string) => {
    mkdirSync(dirname(join(dir, file)), { recursive: true })
    writeFileSync(join(dir, file), body)
  }
  write(
    'index.html',
    `<html><head><script>var mapFiles = ["/assets/boot-J.js", "/assets/react-B.js"];</script>
     <script type="module" crossorigin src="/assets/index-A.js"></script>
     <link rel="modulepreload" crossorigin href="/assets/react-B.js"><link rel="stylesheet" crossorigin href="/assets/index-C.css">
     <link rel="manifest" href="/manifest.webmanifest"></head></html>`,
  )
  // The route /demo imports nothing the entry has not loaded; /other preloads a large chunk of its own.
  const manifest = {
    'index.html': {
      file: 'assets/index-A.js',
      isEntry: true,
      imports: ['_react-B.js'],
      dynamicImports: ['src/routes/demo.tsx', 'src/routes/other.tsx'],
      css: ['assets/index-C.css'],
    },
    '_react-B.js': { file: 'assets/react-B.js' },
    'src/routes/demo.tsx': {
      file: 'assets/demo-D.js',
      isDynamicEntry: true,
      imports: ['index.html'],
      dynamicImports: ['src/MapView.tsx'],
    },
    'src/MapView.tsx': {
      file: 'assets/MapView-F.js',
      isDynamicEntry: true,
      imports: ['_ol-G.js'],
      dynamicImports: ['src/Measure.tsx'],
      css: ['assets/MapView-H.css'],
    },
    '_ol-G.js': { file: 'assets/ol-G.js' },
    'src/Measure.tsx': { file: 'assets/Measure-I.js', isDynamicEntry: true },
    'src/routes/other.tsx': { file: 'assets/other-E.js', isDynamicEntry: true, imports: ['_big-L.js'] },
    '_big-L.js': { file: 'assets/big-L.js' },
    'src/boot.ts': { file: 'assets/boot-J.js', isEntry: true, imports: ['_ol-G.js', '_boot-K.js'] },
    '_boot-K.js': { file: 'assets/boot-K.js' },
  }
  write('.vite/manifest.json', JSON.stringify(manifest))
  write('assets/index-A.js', 'import{a}from"./react-B.js";const r=()=>import("./demo-D.js");')
  write('assets/react-B.js', 'export const a=1;'.repeat(50))
  write('assets/index-C.css', 'body{margin:0}')
  write('assets/demo-D.js', 'import{s}from"./index-A.js";const M=lazy(()=>import("./MapView-F.js"));')
  write('assets/MapView-F.js', 'import{o}from"./ol-G.js";const later=()=>import("./Measure-I.js");')
  write('assets/ol-G.js', 'export const o=2;'.repeat(400))
  write('assets/MapView-H.css', '.map{flex:1}')
  write('assets/Measure-I.js', 'export const m=3;'.repeat(400))
  write('assets/other-E.js', 'import"./big-L.js";')
  write('assets/big-L.js', 'export const l=6;'.repeat(400))
  write('assets/boot-J.js', 'import{o}from"./ol-G.js";import"./boot-K.js";')
  write('assets/boot-K.js', 'export const k=5;')
  write('sw.js', 'self.addEventListener("fetch",()=>{})')

  it('finds the entry script, module preloads and stylesheets in index.html but not the manifest', () => {
    const html = parseHtml(
      `<script type="module" src="/assets/i.js"></script><link rel="modulepreload" href="/assets/p.js"><link rel="stylesheet" href="/assets/s.css"><link rel="manifest" href="/m.json">`,
    )
    expect(html).toEqual({
      scripts: ['assets/i.js'],
      preloads: ['assets/p.js'],
      styles: ['assets/s.css'],
      app: [],
      inline: [],
    })
  })

  it('finds the files index.html’s inline scripts name, once each, with the app’s own apart, but not what a script loads by its src', () => {
    const html = parseHtml(
      `<script>var appFiles = ["/assets/a.js", "/assets/r.js"]; var mapFiles = ["/assets/m.js", "/assets/m.css"]; var boot = { module: "/assets/b.js" };</script><script type="module">import("/assets/m.js")</script><script type="module" src="/assets/i.js"></script>`,
    )
    expect(html.app).toEqual(['assets/a.js', 'assets/r.js'])
    expect(html.inline).toEqual(['assets/a.js', 'assets/r.js', 'assets/m.js', 'assets/m.css', 'assets/b.js'])
  })

  it('reads each chunk’s static imports, dynamic imports and stylesheets by file name from the build manifest', () => {
    const graph = readManifest(manifest)
    expect(graph.get('assets/MapView-F.js')).toEqual({
      imports: ['assets/ol-G.js'],
      dynamicImports: ['assets/Measure-I.js'],
      css: ['assets/MapView-H.css'],
    })
    expect(graph.get('assets/demo-D.js')?.imports).toEqual(['assets/index-A.js'])
    expect(graph.get('assets/index-C.css')).toEqual({ imports: [], dynamicImports: [], css: [] })
  })

  it('tells which build manifest entry is missing rather than counting less', () => {
    expect(() => readManifest({ 'index.html': { file: 'assets/index-A.js', imports: ['_gone.js'] } })).toThrow(
      'the build manifest names _gone.js but has no entry for it',
    )
  })

  it('refuses a build without a manifest, naming the setting that writes it', () => {
    const bare = join(dir, 'bare')
    mkdirSync(bare)
    writeFileSync(join(bare, 'index.html'), '<html></html>')
    expect(() => readDist(bare)).toThrow(/no build manifest .*build\.manifest/)
  })

  it('counts the route chunk, what it lazy-loads for the map and what the inline script starts, but not what the map loads later, what is already initial or what another route preloads', () => {
    const g = readDist(dir)
    const s = summariseDist(g, 'demo')
    expect([...s.initial].sort()).toEqual(['assets/index-A.js', 'assets/index-C.css', 'assets/react-B.js'])
    expect(s.routeChunk).toBe('assets/demo-D.js')
    expect([...s.route].sort()).toEqual([
      'assets/MapView-F.js',
      'assets/MapView-H.css',
      'assets/boot-J.js',
      'assets/boot-K.js',
      'assets/demo-D.js',
      'assets/ol-G.js',
    ])
    expect(total(g, s.firstPaint).gzip).toBe(total(g, s.initial).gzip + total(g, s.route).gzip)
    expect(g.sw?.raw).toBeGreaterThan(0)
  })
})

const dist = process.env.DIST_DIR ? resolve(process.env.DIST_DIR) : resolve(import.meta.dirname, '../../dist')

describe('size budgets of the build in dist/ (tests/budgets/budgets.ts)', () => {
  it('has a build to measure (npm run build)', () => {
    expect(existsSync(join(dist, 'index.html')), `no build in ${dist}`).toBe(true)
  })
  const g = existsSync(join(dist, 'index.html')) ? readDist(dist) : null
  const s = g ? summariseDist(g, budgets.mapRoute) : null

  it(`keeps the initial JS+CSS within ${budgets.initialJsCssGzipKB} kB gzip`, () => {
    expect(kB(total(g!, s!.initial).gzip)).toBeLessThanOrEqual(budgets.initialJsCssGzipKB)
  })

  it(`finds the /${budgets.mapRoute} route chunk and keeps what it adds before the map draws within ${budgets.mapRouteGzipKB} kB gzip`, () => {
    expect(s!.routeChunk).not.toBeNull()
    expect(kB(total(g!, s!.route).gzip)).toBeLessThanOrEqual(budgets.mapRouteGzipKB)
  })

  it(`keeps the service worker within ${budgets.serviceWorkerGzipKB} kB gzip`, () => {
    expect(g!.sw).not.toBeNull()
    expect(kB(g!.sw!.gzip)).toBeLessThanOrEqual(budgets.serviceWorkerGzipKB)
  })
})
