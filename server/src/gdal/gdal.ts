import { createRequire } from 'node:module'
import { dirname, relative } from 'node:path'

/** The part of gdal3.js's API the server uses; the package ships no types. */
export type GdalDataset = { pointer: number; path: string; type: 'vector' | 'raster'; info?: unknown }
export type Gdal = {
  open(
    files: string | string[],
    openOptions?: string[],
    vfsHandlers?: string[],
  ): Promise<{ datasets: GdalDataset[]; errors: unknown[] }>
  close(dataset: GdalDataset): Promise<void>
  getInfo(dataset: GdalDataset): Promise<Record<string, unknown>>
  ogrinfo(dataset: GdalDataset, options?: string[]): Promise<Record<string, unknown>>
  gdalinfo(dataset: GdalDataset, options?: string[]): Promise<Record<string, unknown>>
  ogr2ogr(
    dataset: GdalDataset,
    options: string[],
    outputName?: string,
  ): Promise<{ local: string; real: string; all: { local: string; real: string }[] }>
  gdal_translate(
    dataset: GdalDataset,
    options: string[],
    outputName?: string,
  ): Promise<{ local: string; real: string; all: { local: string; real: string }[] }>
  gdalwarp(
    dataset: GdalDataset,
    options: string[],
    outputName?: string,
  ): Promise<{ local: string; real: string; all: { local: string; real: string }[] }>
  gdaltransform(coords: number[][], options: string[]): Promise<number[][]>
  getFileBytes(file: { local: string } | string): Promise<Uint8Array>
  drivers: { vector: Record<string, unknown>; raster: Record<string, unknown> }
  Module: {
    FS: { unlink(path: string): void; readdir(path: string): string[] }
    ccall(name: 'CPLSetConfigOption', returns: null, types: ['string', 'string'], args: [string, string | null]): void
  }
}

const require = createRequire(import.meta.url)
let loading: Promise<Gdal> | undefined

/**
 * GDAL compiled to WebAssembly, loaded once per process (its time and memory: docs/performance.md,
 * "Import"). Files are read in place
 * through Emscripten's NODEFS mount, so a large input is not copied into memory first.
 *
 * gdal3.js reads its .wasm and .data from a path it resolves against the working directory (it
 * prefixes "./" to absolute paths too), so the package folder is given relative to `process.cwd()`.
 */
export function loadGdal(): Promise<Gdal> {
  loading ??= (async () => {
    const init = require('gdal3.js/node.js') as (config: Record<string, unknown>) => Promise<Gdal>
    const dir = dirname(require.resolve('gdal3.js/dist/package/gdal3WebAssembly.wasm'))
    const path = `${relative(process.cwd(), dir) || '.'}/`
    const quiet = () => {}
    return init({ path, useWorker: false, logHandler: quiet, errorHandler: quiet })
  })()
  return loading
}
