import { createHash } from 'node:crypto'
import { readFileSync, readdirSync, statSync } from 'node:fs'
import { join, relative, resolve } from 'node:path'
import { tanstackRouter } from '@tanstack/router-plugin/vite'
import react from '@vitejs/plugin-react'
import { defineConfig, type Plugin, type Rollup } from 'vite'
import { VitePWA } from 'vite-plugin-pwa'

const root = import.meta.dirname
const manifestFile = resolve(root, 'manifest.webmanifest')

function filesUnder(dir: string): string[] {
  try {
    return readdirSync(dir)
      .sort()
      .flatMap((name) => {
        const full = join(dir, name)
        return statSync(full).isDirectory() ? filesUnder(full) : [full]
      })
  } catch {
    return []
  }
}

/**
 * Moves the app's stylesheet links from <head> to the end of <body>. In <head> they block the first
 * paint; the boot shell is styled inline, so it paints from the HTML alone while they load. The app
 * still never renders unstyled: a stylesheet the parser inserted blocks module scripts wherever it stands.
 */
function stylesheetsAfterShell(html: string): string {
  const links: string[] = []
  const rest = html.replace(/[ \t]*<link rel="stylesheet"[^>]*>\n?/g, (tag) => {
    links.push(tag.trim())
    return ''
  })
  if (links.length === 0) return html
  return rest.replace('</body>', `${links.map((l) => `  ${l}\n`).join('')}  </body>`)
}

/**
 * The entry runs only once the boot shell has been painted. As a plain module script, code already
 * cached (service worker) runs straight after parsing and holds the first paint until React has
 * rendered; a module preload still fetches and compiles it at once, and a small inline module (hashed
 * in the CSP like the other inline script, and run after the stylesheets like any module script)
 * imports it in the frame after the shell's. A hidden tab paints no frames, so it does not wait.
 */
function entryAfterFirstPaint(html: string): string {
  return html.replace(/<script type="module" crossorigin src="([^"]+)"><\/script>/, (_tag, src: string) => {
    const load = `import(${JSON.stringify(src)})`
    return (
      `<link rel="modulepreload" crossorigin href="${src}">\n` +
      `    <script type="module">if (document.visibilityState === 'hidden') ${load}; else requestAnimationFrame(() => setTimeout(() => ${load}))</script>`
    )
  })
}

/**
 * The files /demo needs beyond the entry's: its route chunk and the map view (OpenLayers), with their
 * static imports and styles. index.html's inline script asks for them at once on /demo, so they load
 * (and compile off the main thread) beside the entry instead of after it has run and the router started.
 */
function mapRouteFiles(bundle: Rollup.OutputBundle): string[] {
  const chunks = Object.values(bundle).filter((c): c is Rollup.OutputChunk => c.type === 'chunk')
  const initial = new Set<string>()
  const addInitial = (file: string) => {
    if (initial.has(file)) return
    initial.add(file)
    chunks.find((c) => c.fileName === file)?.imports.forEach(addInitial)
  }
  chunks.filter((c) => c.isEntry).forEach((c) => addInitial(c.fileName))
  const files = new Set<string>()
  const add = (chunk: Rollup.OutputChunk | undefined) => {
    if (!chunk || initial.has(chunk.fileName) || files.has(chunk.fileName)) return
    files.add(chunk.fileName)
    chunk.viteMetadata?.importedCss.forEach((css) => files.add(css))
    chunk.imports.forEach((file) => add(chunks.find((c) => c.fileName === file)))
  }
  const starts = [/\/src\/routes\/demo\.tsx\?tsr-split/, /\/src\/features\/map\/MapView\.tsx$/]
  for (const re of starts) {
    const chunk = chunks.find((c) => c.facadeModuleId !== null && re.test(c.facadeModuleId))
    if (!chunk) throw new Error(`no chunk for ${re}: /demo would load its map only after the entry`)
    add(chunk)
  }
  return [...files].map((f) => `/${f}`)
}

/**
 * Makes every build identifiable: its id is a hash of everything it emits (code, styles, the web
 * manifest, public files), written as `<meta name="build-id">` into index.html and published as
 * builds/latest.json and builds/meta/{id}.json, which the running app polls to notice a newer build.
 * Also copies the top-level manifest.webmanifest into the build (and serves it in development).
 */
function buildInfo(): Plugin {
  let publicDir = ''
  return {
    name: 'qh-build-info',
    enforce: 'post',
    configResolved(config) {
      publicDir = config.publicDir
    },
    // Added after Vite's own HTML processing so the link keeps its stable, unhashed address.
    transformIndexHtml: {
      order: 'post',
      handler: (html, ctx) => ({
        html: ctx.bundle ? entryAfterFirstPaint(stylesheetsAfterShell(html)) : html,
        tags: [{ tag: 'link', attrs: { rel: 'manifest', href: '/manifest.webmanifest' }, injectTo: 'head' }],
      }),
    },
    configureServer(server) {
      server.middlewares.use('/manifest.webmanifest', (_req, res) => {
        res.setHeader('Content-Type', 'application/manifest+json; charset=utf-8')
        res.end(readFileSync(manifestFile))
      })
    },
    generateBundle(_options, bundle) {
      this.emitFile({ type: 'asset', fileName: 'manifest.webmanifest', source: readFileSync(manifestFile) })
      const html = bundle['index.html']
      if (!html || html.type !== 'asset') return
      html.source = String(html.source).replace('var mapFiles = [];', `var mapFiles = ${JSON.stringify(mapRouteFiles(bundle))};`)
      const hash = createHash('sha256')
      for (const name of Object.keys(bundle).sort()) {
        const item = bundle[name]!
        hash.update(name)
        hash.update(item.type === 'chunk' ? item.code : item.source)
      }
      for (const file of filesUnder(publicDir)) {
        hash.update(relative(publicDir, file))
        hash.update(readFileSync(file))
      }
      // A release label (e.g. a version or commit) makes an otherwise identical build a new one.
      const label = process.env.QH_BUILD_LABEL ?? ''
      hash.update(label)
      const id = hash.digest('hex').slice(0, 16)
      const info = JSON.stringify({ id, timestamp: Date.now() })
      const meta = `  <meta name="build-id" content="${id}" />\n${label ? `    <meta name="build-label" content="${label.replace(/[^\w.:-]/g, '')}" />\n` : ''}  </head>`
      html.source = String(html.source).replace('</head>', meta)
      this.emitFile({ type: 'asset', fileName: 'builds/latest.json', source: info })
      this.emitFile({ type: 'asset', fileName: `builds/meta/${id}.json`, source: info })
    },
  }
}

export default defineConfig({
  plugins: [
    tanstackRouter({ target: 'react', autoCodeSplitting: true, routesDirectory: './src/routes', generatedRouteTree: './src/routeTree.gen.ts' }),
    react(),
    buildInfo(),
    VitePWA({
      strategies: 'injectManifest',
      srcDir: 'sw',
      filename: 'sw.ts',
      // The app registers the worker itself (workbox-window) and ships its own manifest file.
      injectRegister: false,
      manifest: false,
      injectManifest: {
        // The shell, every route chunk and the icons; build ids and the worker itself stay out.
        globPatterns: ['**/*.{js,css,html,svg,png,webmanifest,woff2}'],
        globIgnores: ['builds/**', 'sw.js', 'screenshots/**'],
        maximumFileSizeToCacheInBytes: 3 * 1024 * 1024,
      },
      devOptions: { enabled: false },
    }),
  ],
  build: {
    target: 'es2022',
    sourcemap: false,
    assetsInlineLimit: 0,
  },
  server: {
    proxy: {
      '/api': 'http://localhost:3000',
      '/tiles': 'http://localhost:3000',
      '/builds': 'http://localhost:3000',
    },
  },
})
