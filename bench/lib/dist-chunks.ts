import { existsSync, readFileSync } from 'node:fs'
import { join } from 'node:path'
import { brotliCompressSync, constants, gzipSync } from 'node:zlib'

/**
 * What a Vite build asks a browser to download: from index.html, its entry script, module preloads and
 * stylesheets, whether as tags or listed in its inline scripts (`appFiles`: the entry and its chunks; the
 * other files named there are /demo's: the boot map and the map's chunks); from the build manifest
 * (`build.manifest`), each chunk's static imports, dynamic imports and CSS. A dynamic import preloads
 * its chunk's static imports and their CSS, as Vite's preload list does. Sizes are those the server
 * sends: gzip level 9 and brotli quality 11, as the build precompresses them.
 */
export type Sizes = { raw: number; gzip: number; brotli: number }
type Graph = { imports: string[]; dynamicImports: string[]; css: string[] }
export type Chunk = Sizes & Graph & { file: string }
export type DistGraph = {
  dir: string
  chunks: Map<string, Chunk>
  html: { scripts: string[]; preloads: string[]; styles: string[]; app: string[]; inline: string[] }
  sw: Sizes | null
}

export function sizesOf(body: Buffer): Sizes {
  return {
    raw: body.length,
    gzip: gzipSync(body, { level: 9 }).length,
    brotli: brotliCompressSync(body, { params: { [constants.BROTLI_PARAM_QUALITY]: 11 } }).length,
  }
}

export function parseHtml(html: string): DistGraph['html'] {
  const attr = (tag: string, name: string) => new RegExp(`\\b${name}=["']([^"']+)["']`).exec(tag)?.[1]
  const tags = (name: string) => html.match(new RegExp(`<${name}\\b[^>]*>`, 'g')) ?? []
  const scripts = tags('script')
    .filter((t) => /type=["']module["']/.test(t))
    .flatMap((t) => attr(t, 'src') ?? [])
  const links = tags('link')
  const rel = (t: string) => attr(t, 'rel') ?? ''
  return {
    scripts: scripts.map((s) => s.replace(/^\//, '')),
    preloads: links
      .filter((t) => rel(t) === 'modulepreload')
      .flatMap((t) => attr(t, 'href') ?? [])
      .map((s) => s.replace(/^\//, '')),
    styles: links
      .filter((t) => rel(t) === 'stylesheet')
      .flatMap((t) => attr(t, 'href') ?? [])
      .map((s) => s.replace(/^\//, '')),
    app: [
      ...(/var appFiles = \[([^\]]*)\]/.exec(html)?.[1] ?? '').matchAll(/["'`]\/(assets\/[^"'`]+\.(?:js|css))["'`]/g),
    ].map((f) => f[1] as string),
    inline: [
      ...new Set(
        [...html.matchAll(/<script\b(?![^>]*\bsrc=)[^>]*>([\s\S]*?)<\/script>/g)].flatMap((m) =>
          [...(m[1] ?? '').matchAll(/["'`]\/(assets\/[^"'`]+\.(?:js|css))["'`]/g)].map((f) => f[1] as string),
        ),
      ),
    ],
  }
}

/** One entry of Vite's build manifest (dist/.vite/manifest.json), keyed by source path or `_name-hash.js`. */
type ManifestEntry = { file: string; imports?: string[]; dynamicImports?: string[]; css?: string[] }

/**
 * The chunks of a build as its manifest describes them: each chunk's static imports, dynamic imports and
 * the CSS Vite loads with it, by file name. What a dynamic import preloads is its own static closure.
 */
export function readManifest(manifest: Record<string, ManifestEntry>): Map<string, Graph> {
  const fileOf = (key: string) => {
    const entry = manifest[key]
    if (!entry) throw new Error(`the build manifest names ${key} but has no entry for it`)
    return entry.file
  }
  const graph = new Map<string, Graph>()
  for (const entry of Object.values(manifest)) {
    graph.set(entry.file, {
      imports: (entry.imports ?? []).map(fileOf),
      dynamicImports: (entry.dynamicImports ?? []).map(fileOf),
      css: entry.css ?? [],
    })
    for (const css of entry.css ?? []) if (!graph.has(css)) graph.set(css, { imports: [], dynamicImports: [], css: [] })
  }
  return graph
}

export function readDist(dir: string): DistGraph {
  const html = parseHtml(readFileSync(join(dir, 'index.html'), 'utf8'))
  const manifestFile = join(dir, '.vite/manifest.json')
  if (!existsSync(manifestFile)) throw new Error(`no build manifest in ${dir} (vite.config.ts: build.manifest)`)
  const chunks = new Map<string, Chunk>()
  for (const [file, graph] of readManifest(JSON.parse(readFileSync(manifestFile, 'utf8')))) {
    if (/\.(js|css)$/.test(file)) chunks.set(file, { file, ...sizesOf(readFileSync(join(dir, file))), ...graph })
  }
  const swFile = join(dir, 'sw.js')
  return { dir, chunks, html, sw: existsSync(swFile) ? sizesOf(readFileSync(swFile)) : null }
}

/** The files plus everything they import statically, and the CSS Vite loads with each. */
export function staticClosure(g: DistGraph, files: Iterable<string>): Set<string> {
  const out = new Set<string>()
  const visit = (f: string) => {
    if (out.has(f)) return
    out.add(f)
    const chunk = g.chunks.get(f)
    for (const css of chunk?.css ?? []) out.add(css)
    for (const i of chunk?.imports ?? []) visit(i)
  }
  for (const f of files) visit(f)
  return out
}

export type DistSummary = {
  initial: Set<string>
  /** What the route adds before it can draw: its chunk, the chunks it lazy-loads itself, their CSS. */
  route: Set<string>
  routeChunk: string | null
  firstPaint: Set<string>
}

/**
 * `initial`: what index.html loads for every page. `route`: the route's chunk as the entry imports it (with what
 * it preloads), plus the chunks the route chunk itself imports lazily (the map view behind React.lazy), plus
 * what index.html's inline scripts name beyond the entry (the boot map on /demo), minus what is already
 * initial. The route chunk is the dynamic import whose file is named after the route.
 */
export function summariseDist(g: DistGraph, route: string): DistSummary {
  const initial = staticClosure(g, [...g.html.scripts, ...g.html.preloads, ...g.html.styles, ...g.html.app])
  const all = [...initial].flatMap((f) => g.chunks.get(f)?.dynamicImports ?? [])
  const routeChunk = all.find((f) => new RegExp(`^assets/${route}-[\\w-]+\\.js$`).test(f)) ?? null
  const route_ = new Set<string>()
  if (routeChunk) {
    for (const f of staticClosure(g, [routeChunk, ...(g.chunks.get(routeChunk)?.dynamicImports ?? [])])) route_.add(f)
  }
  for (const f of staticClosure(g, g.html.inline)) route_.add(f)
  for (const f of initial) route_.delete(f)
  return { initial, route: route_, routeChunk, firstPaint: new Set([...initial, ...route_]) }
}

export function total(g: DistGraph, files: Iterable<string>): Sizes {
  const sum: Sizes = { raw: 0, gzip: 0, brotli: 0 }
  for (const f of files) {
    const c = g.chunks.get(f)
    if (!c) continue
    sum.raw += c.raw
    sum.gzip += c.gzip
    sum.brotli += c.brotli
  }
  return sum
}
