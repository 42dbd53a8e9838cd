import { createHash } from 'node:crypto'
import { readFileSync, readdirSync, statSync } from 'node:fs'
import { join, relative, resolve } from 'node:path'
import { tanstackRouter } from '@tanstack/router-plugin/vite'
import react from '@vitejs/plugin-react'
import { defineConfig, type Plugin, type Rollup } from 'vite'
import { VitePWA } from 'vite-plugin-pwa'
import { tileLayerIds } from './core/contract/tiles.ts'

const root = import.meta.dirname
const manifestFile = resolve(root, 'manifest.webmanifest')
/** The /demo map index.html starts before the app's entry (see entryAfterFirstPaint). */
const bootMapModule = resolve(root, 'src/features/map/boot/boot-map.ts')

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
 * Puts the app's own stylesheet (the entry's CSS) in the cascade layer `app`. It now stands at the end
 * of <body>, while the CSS of chunks loaded later (a route, a dialog, the map) is inserted into <head>,
 * before it: by order alone the app's base rules (a button's `border: 0`) would beat those chunks'
 * component rules (the Tabs' underline). Unlayered CSS wins over any layer whatever its place, so the
 * later chunks win again, as they did in <head>; index.html's boot styles sit in the layer `boot`,
 * declared first, below the app's.
 */
function entryCssInLayer(bundle: Rollup.OutputBundle, html: string): void {
  const linked = [...html.matchAll(/<link rel="stylesheet"[^>]* href="\/([^"]+\.css)"/g)].map((m) => m[1] as string)
  if (linked.length === 0) throw new Error('index.html links no stylesheet: the app would render unstyled')
  for (const file of linked) {
    const asset = bundle[file]
    if (!asset || asset.type !== 'asset') throw new Error(`entry stylesheet ${file} is not in the bundle`)
    const css = String(asset.source)
    const charset = /^@charset "[^"]*";\s*/.exec(css)?.[0] ?? ''
    asset.source = `${charset}@layer app{${css.slice(charset.length)}}\n`
  }
}

/**
 * The entry runs only once the boot shell has been painted. As a plain module script, code already
 * cached (service worker) runs straight after parsing and holds the first paint until React has
 * rendered; a small inline module (hashed in the CSP like the other inline script, and run after the
 * stylesheets like any module script) imports it once index.html's first script has seen the shell's
 * first contentful paint (`afterFirstPaint`). A hidden tab paints nothing, so it does not wait.
 *
 * The preloads of the entry and its chunks are not tags but a list (`appFiles`) index.html's first
 * script preloads (`loadApp`) after that paint too, so nothing but the HTML stands before it: at once
 * then, except on /demo when it starts the boot map (`mapBoot.module`).
 * That module then runs first and draws the map into the boot shell, and the app's code is loaded and
 * run once the map's first tiles are drawn (or failed, or took too long): on a slow link the map's files
 * and tiles do not share it with the app's, and on a slow phone the two do not share its busy core.
 */
function entryAfterFirstPaint(html: string): string {
  const entry = /<script type="module" crossorigin src="([^"]+)"><\/script>/.exec(html)?.[1]
  if (!entry) throw new Error('index.html has no entry script')
  const imports: string[] = []
  const rest = html.replace(/[ \t]*<link rel="modulepreload" crossorigin href="([^"]+)">\n?/g, (_tag, href: string) => {
    imports.push(href)
    return ''
  })
  const appLine = 'var appFiles = [];'
  if (!rest.includes(appLine)) throw new Error(`index.html has no "${appLine}" for the build to fill in`)
  const start =
    `const entry = () => (loadApp(), import(${JSON.stringify(entry)})); ` +
    `const start = mapBoot.module ? () => import(mapBoot.module).then((m) => m.startBootMap()).then(entry, entry) : entry; ` +
    `afterFirstPaint(start)`
  return rest
    .replace(appLine, `var appFiles = ${JSON.stringify([entry, ...imports])};`)
    .replace(/<script type="module" crossorigin src="[^"]+"><\/script>/, `<script type="module">${start}</script>`)
}

/**
 * The files /demo needs beyond the entry's: the boot map's module, its route chunk and the map view
 * (OpenLayers), with their static imports and styles. index.html's inline script asks for them on /demo
 * with the entry's, so they load (and compile off the main thread) beside it instead of after it has run
 * and the router started.
 */
function mapRouteFiles(bundle: Rollup.OutputBundle): string[] {
  const chunks = Object.values(bundle).filter((c): c is Rollup.OutputChunk => c.type === 'chunk')
  const initial = new Set<string>()
  const addInitial = (file: string) => {
    if (initial.has(file)) return
    initial.add(file)
    chunks.find((c) => c.fileName === file)?.imports.forEach(addInitial)
  }
  // The app's entry, not the boot map's: that one is among the files listed here.
  chunks.filter((c) => c.isEntry && c.facadeModuleId !== bootMapModule).forEach((c) => addInitial(c.fileName))
  const files = new Set<string>()
  const add = (chunk: Rollup.OutputChunk | undefined) => {
    if (!chunk || initial.has(chunk.fileName) || files.has(chunk.fileName)) return
    files.add(chunk.fileName)
    chunk.viteMetadata?.importedCss.forEach((css) => files.add(css))
    chunk.imports.forEach((file) => add(chunks.find((c) => c.fileName === file)))
  }
  const starts = [
    /\/src\/features\/map\/boot\/boot-map\.ts$/,
    /\/src\/routes\/demo\.tsx\?tsr-split/,
    /\/src\/features\/map\/MapView\.tsx$/,
  ]
  for (const re of starts) {
    const chunk = chunks.find((c) => c.facadeModuleId !== null && re.test(c.facadeModuleId))
    if (!chunk) throw new Error(`no chunk for ${re}: /demo would load its map only after the entry`)
    add(chunk)
  }
  return [...files].map((f) => `/${f}`)
}

/**
 * What the boot map needs before it can draw: its module with every chunk it imports (also those it
 * shares with the entry) and the map's stylesheets, which the boot map waits for (boot-map.ts).
 */
function bootMapFiles(bundle: Rollup.OutputBundle, mapFiles: string[]): string[] {
  const chunks = Object.values(bundle).filter((c): c is Rollup.OutputChunk => c.type === 'chunk')
  const files = new Set<string>()
  const add = (chunk: Rollup.OutputChunk | undefined) => {
    if (!chunk || files.has(`/${chunk.fileName}`)) return
    files.add(`/${chunk.fileName}`)
    chunk.imports.forEach((file) => add(chunks.find((c) => c.fileName === file)))
  }
  add(chunks.find((c) => c.facadeModuleId === bootMapModule))
  if (files.size === 0) throw new Error('no chunk for the boot map: /demo would draw its map only after the app')
  return [...files, ...mapFiles.filter((f) => f.endsWith('.css'))]
}

/**
 * Makes every build identifiable: its id is a hash of everything it emits (code, styles, the web
 * manifest, public files), written as `<meta name="build-id">` into index.html and published as
 * builds/latest.json and builds/meta/{id}.json, which the running app polls to notice a newer build.
 * Also copies the top-level manifest.webmanifest into the build (and serves it in development).
 */
function buildInfo(): Plugin {
  let publicDir = ''
  let apiBaseUrl = ''
  let building = false
  return {
    name: 'qh-build-info',
    enforce: 'post',
    configResolved(config) {
      publicDir = config.publicDir
      apiBaseUrl = String(config.env.VITE_API_BASE_URL ?? '').replace(/\/+$/, '')
      building = config.command === 'build'
    },
    buildStart() {
      // Its own entry, so the chunks it needs are split from the app's entry and load without it.
      if (building) this.emitFile({ type: 'chunk', id: bootMapModule, name: 'boot-map', preserveSignature: 'strict' })
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
      entryCssInLayer(bundle, String(html.source))
      const mapFiles = mapRouteFiles(bundle)
      const bootFiles = bootMapFiles(bundle, mapFiles)
      const fetches = tileLayerIds.map((id) => `${apiBaseUrl}/tiles/${id}.json`)
      const fill = (line: string, filled: string) => {
        if (!String(html.source).includes(line)) throw new Error(`index.html has no "${line}" for the build to fill in`)
        html.source = String(html.source).replace(line, filled)
      }
      fill('var mapFiles = [];', `var mapFiles = ${JSON.stringify(mapFiles)};`)
      fill(
        'var mapBoot = { module: null, files: [], fetches: [] };',
        `var mapBoot = { module: ${JSON.stringify(bootFiles[0])}, files: ${JSON.stringify(bootFiles)}, fetches: ${JSON.stringify(fetches)} };`,
      )
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
    tanstackRouter({
      target: 'react',
      autoCodeSplitting: true,
      routesDirectory: './src/routes',
      generatedRouteTree: './src/routeTree.gen.ts',
    }),
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
    // dist/.vite/manifest.json: the chunk graph the size budgets and the bench read (bench/lib/dist-chunks.ts).
    manifest: true,
  },
  server: {
    proxy: {
      '/api': 'http://localhost:3000',
      '/tiles': 'http://localhost:3000',
      '/builds': 'http://localhost:3000',
    },
  },
})
