import { existsSync, readdirSync, readFileSync } from 'node:fs'
import { join } from 'node:path'
import { brotliCompressSync, constants, gzipSync } from 'node:zlib'

/**
 * What a Vite build asks a browser to download, read from the files themselves: index.html's entry
 * script, module preloads and stylesheets, whether as tags or listed in its inline scripts (`appFiles`:
 * the entry and its chunks; the other files named there are /demo's: the boot map and the map's
 * chunks); each chunk's static imports; and each dynamic import with the list Vite preloads alongside
 * it (`__vite__mapDeps`, JS and CSS). Sizes are those the server sends: gzip level 9 and brotli quality
 * 11, as the build precompresses them.
 */
export type Sizes = { raw: number; gzip: number; brotli: number }
export type Chunk = Sizes & { file: string; imports: string[]; dynamicImports: { file: string; deps: string[] }[] }
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

const asset = (href: string) => href.replace(/^\.?\//, '').replace(/^(?!assets\/)/, 'assets/')

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

/** Static imports, and dynamic imports with their preload lists, of one built chunk (in assets/). */
export function parseChunk(code: string): Pick<Chunk, 'imports' | 'dynamicImports'> {
  const imports = new Set<string>()
  for (const m of code.matchAll(/(?:\bfrom|\bimport)\s*["'`]\.\/([^"'`]+\.js)["'`]/g))
    imports.add(asset(m[1] as string))
  const depList = /m\.f=\[([^\]]*)\]/.exec(code)?.[1]
  const files = depList ? [...depList.matchAll(/["'`]([^"'`]+)["'`]/g)].map((m) => m[1] as string) : []
  const dynamicImports: Chunk['dynamicImports'] = []
  for (const m of code.matchAll(/import\(\s*["'`]\.\/([^"'`]+\.js)["'`]\s*\)/g)) {
    const file = asset(m[1] as string)
    // Vite wraps the call as __vitePreload(() => import("./x.js"), __vite__mapDeps([i, …])); the list follows it closely.
    const after = code.slice((m.index ?? 0) + m[0].length, (m.index ?? 0) + m[0].length + 400)
    const idx = /^[^;]*?__vite__mapDeps\(\[([\d,\s]*)\]\)/.exec(after)?.[1]
    const deps = idx
      ? idx
          .split(',')
          .filter((s) => s.trim() !== '')
          .map((i) => files[Number(i)] as string)
          .filter(Boolean)
      : []
    dynamicImports.push({ file, deps: [...new Set([file, ...deps])] })
  }
  return { imports: [...imports], dynamicImports }
}

export function readDist(dir: string): DistGraph {
  const html = parseHtml(readFileSync(join(dir, 'index.html'), 'utf8'))
  const chunks = new Map<string, Chunk>()
  for (const name of readdirSync(join(dir, 'assets'))) {
    if (!/\.(js|css)$/.test(name)) continue
    const file = `assets/${name}`
    const body = readFileSync(join(dir, file))
    const parsed = name.endsWith('.js') ? parseChunk(body.toString('utf8')) : { imports: [], dynamicImports: [] }
    chunks.set(file, { file, ...sizesOf(body), ...parsed })
  }
  const swFile = join(dir, 'sw.js')
  return { dir, chunks, html, sw: existsSync(swFile) ? sizesOf(readFileSync(swFile)) : null }
}

/** The files plus everything they import statically, and the CSS Vite attached to them. */
export function staticClosure(g: DistGraph, files: Iterable<string>): Set<string> {
  const out = new Set<string>()
  const visit = (f: string) => {
    if (out.has(f)) return
    out.add(f)
    for (const i of g.chunks.get(f)?.imports ?? []) visit(i)
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
 * `initial`: what index.html loads for every page. `route`: the route's chunk as the entry imports it (with its preload
 * list), plus the chunks the route chunk itself imports lazily (the map view behind React.lazy), plus
 * what index.html's inline scripts name beyond the entry (the boot map on /demo), minus what is already
 * initial. The route chunk is the dynamic import whose file is named after the route.
 */
export function summariseDist(g: DistGraph, route: string): DistSummary {
  const initial = staticClosure(g, [...g.html.scripts, ...g.html.preloads, ...g.html.styles, ...g.html.app])
  const all = [...initial].flatMap((f) => g.chunks.get(f)?.dynamicImports ?? [])
  const entryImport = all.find((d) => new RegExp(`^assets/${route}-[\\w-]+\\.js$`).test(d.file))
  const route_ = new Set<string>()
  if (entryImport) {
    for (const f of staticClosure(g, entryImport.deps)) route_.add(f)
    for (const lazy of g.chunks.get(entryImport.file)?.dynamicImports ?? [])
      for (const f of staticClosure(g, lazy.deps)) route_.add(f)
  }
  for (const f of staticClosure(g, g.html.inline)) route_.add(f)
  for (const f of initial) route_.delete(f)
  return { initial, route: route_, routeChunk: entryImport?.file ?? null, firstPaint: new Set([...initial, ...route_]) }
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
