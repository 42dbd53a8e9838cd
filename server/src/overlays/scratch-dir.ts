import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import type { Gdal } from '../gdal/gdal.ts'

type EmscriptenFs = {
  mkdir(path: string): void
  mount(type: unknown, opts: { root: string }, mountpoint: string): void
  unmount(mountpoint: string): void
  rmdir(path: string): void
  unlink(path: string): void
}

let mounts = 0

/**
 * A real directory on disk that GDAL writes into. gdal3.js puts its outputs in an in-memory /output
 * folder; a large sheet's intermediate raster would then sit in the WebAssembly heap. Mounting a
 * temporary directory with NODEFS and naming outputs `../<mount>/file` keeps them on disk instead.
 */
export type ScratchDir = {
  /** Path on disk, for Node (sharp, fs). */
  real(name: string): string
  /** Output name for gdal_translate / gdalwarp (relative to gdal3.js's /output). */
  gdalName(stem: string): string
  /**
   * Deletes a file GDAL wrote, through GDAL's file system: deleted from Node instead, the name stays
   * in that file system's cache and GDAL cannot create it again.
   */
  remove(name: string): void
  close(): void
}

export function openScratchDir(gdal: Gdal, parent = tmpdir()): ScratchDir {
  const dir = mkdtempSync(join(parent, 'qh-overlay-'))
  const fs = (gdal.Module as unknown as { FS: EmscriptenFs; NODEFS: unknown }).FS
  const nodefs = (gdal.Module as unknown as { NODEFS: unknown }).NODEFS
  const mountpoint = `/scratch${++mounts}`
  fs.mkdir(mountpoint)
  fs.mount(nodefs, { root: dir }, mountpoint)
  return {
    real: (name) => join(dir, name),
    gdalName: (stem) => `..${mountpoint}/${stem}`,
    remove: (name) => fs.unlink(`${mountpoint}/${name}`),
    close() {
      try {
        fs.unmount(mountpoint)
        fs.rmdir(mountpoint)
      } finally {
        rmSync(dir, { recursive: true, force: true })
      }
    },
  }
}
