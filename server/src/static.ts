import { existsSync, readFileSync, readdirSync, statSync } from 'node:fs'
import { extname, join, relative, sep } from 'node:path'
import { brotliCompressSync, constants, gzipSync } from 'node:zlib'
import type { Context } from 'hono'

const types: Record<string, string> = {
  '.html': 'text/html; charset=utf-8',
  '.js': 'text/javascript; charset=utf-8',
  '.mjs': 'text/javascript; charset=utf-8',
  '.css': 'text/css; charset=utf-8',
  '.json': 'application/json; charset=utf-8',
  '.webmanifest': 'application/manifest+json; charset=utf-8',
  '.svg': 'image/svg+xml',
  '.png': 'image/png',
  '.webp': 'image/webp',
  '.ico': 'image/x-icon',
  '.txt': 'text/plain; charset=utf-8',
  '.woff2': 'font/woff2',
  '.map': 'application/json; charset=utf-8',
  '.pbf': 'application/x-protobuf',
}
const compressible = /^(text\/|application\/(json|manifest\+json|javascript|x-protobuf)|image\/svg)/

type Asset = {
  body: Buffer
  gzip?: Buffer
  br?: Buffer
  compressible: boolean
  type: string
  cache: string
  etag: string
}

export function isCompressible(file: string, size: number): boolean {
  return compressible.test(types[extname(file)] ?? '') && size > 1024
}

export function brotli(body: Buffer): Buffer {
  return brotliCompressSync(body, { params: { [constants.BROTLI_PARAM_QUALITY]: 11 } })
}

function cacheControl(path: string): string {
  // Vite puts content-hashed files under /assets/; everything else may change with a deploy.
  if (path.startsWith('/assets/')) return 'public, max-age=31536000, immutable'
  if (path.startsWith('/builds/')) return 'no-store'
  return 'no-cache'
}

function walk(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const full = join(dir, name)
    return statSync(full).isDirectory() ? walk(full) : [full]
  })
}

/**
 * The built app, read once into memory, so a request costs no disk read. Compressed variants come from
 * the .br/.gz files the build writes beside each file, or are made on first request and kept. Vite's
 * build manifest (.vite/manifest.json, read by the size budgets) is for the build, not for browsers.
 */
export function loadStaticSite(distDir: string): Map<string, Asset> {
  const site = new Map<string, Asset>()
  if (!existsSync(join(distDir, 'index.html'))) return site
  for (const file of walk(distDir).filter((f) => !/\.(br|gz)$/.test(f))) {
    const path = '/' + relative(distDir, file).split(sep).join('/')
    if (path.startsWith('/.vite/')) continue
    const body = readFileSync(file)
    const type = types[extname(file)] ?? 'application/octet-stream'
    const asset: Asset = {
      body,
      type,
      compressible: isCompressible(file, body.length),
      cache: cacheControl(path),
      etag: `"${statSync(file).mtimeMs.toString(36)}-${body.length.toString(36)}"`,
    }
    if (asset.compressible) {
      if (existsSync(`${file}.br`)) asset.br = readFileSync(`${file}.br`)
      if (existsSync(`${file}.gz`)) asset.gzip = readFileSync(`${file}.gz`)
    }
    site.set(path, asset)
  }
  return site
}

export function serveStatic(site: Map<string, Asset>) {
  return (c: Context) => {
    const raw = new URL(c.req.url).pathname
    // A malformed escape (/%, /%zz) names no file; it is an app route like any other unknown path.
    let path = raw
    try {
      path = decodeURIComponent(raw)
    } catch {}
    // Paths without a file are app routes: the app shows its own 404 page.
    const asset =
      site.get(path) ??
      (path.startsWith('/assets/') || path.startsWith('/builds/') ? undefined : site.get('/index.html'))
    if (!asset) return c.text('Not found', 404, { 'Cache-Control': 'no-store' })
    const headers: Record<string, string> = {
      'Content-Type': asset.type,
      'Cache-Control': asset.cache,
      ETag: asset.etag,
      Vary: 'Accept-Encoding',
    }
    if (c.req.header('if-none-match') === asset.etag) return c.body(null, 304, headers)
    const accept = c.req.header('accept-encoding') ?? ''
    let body = asset.body
    if (asset.compressible && /\bbr\b/.test(accept)) {
      body = asset.br ??= brotli(asset.body)
      headers['Content-Encoding'] = 'br'
    } else if (asset.compressible && /\bgzip\b/.test(accept)) {
      body = asset.gzip ??= gzipSync(asset.body, { level: 9 })
      headers['Content-Encoding'] = 'gzip'
    }
    if (c.req.method === 'HEAD') return c.body(null, 200, { ...headers, 'Content-Length': String(body.length) })
    return c.body(new Uint8Array(body), 200, headers)
  }
}
