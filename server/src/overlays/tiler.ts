import { readFileSync } from 'node:fs'
import sharp from 'sharp'
import type { Queryable } from '../db/database.ts'
import type { Gdal, GdalDataset } from '../gdal/gdal.ts'
import { tileBox, TILE_PX, tileRange, type Box } from './mercator.ts'
import type { ScratchDir } from './scratch-dir.ts'

/** Tiles warped per gdalwarp call, per side: 8 × 8 tiles = 2048 × 2048 px, 16 MB of RGBA. */
const BLOCK_TILES = 8

export type TilerInput = {
  gdal: Gdal
  /** The normalised source (tiled GeoTIFF with its CRS, or GCPs). */
  source: GdalDataset
  /** The source places the image by control points: warp with the first-order (affine) fit. */
  byGcps: boolean
  scratch: ScratchDir
  overlayId: string
  box: Box
  minzoom: number
  maxzoom: number
  onTiles?: (stored: number) => void
}

export type TilerResult = { tiles: number; bytes: number }

/** Raises a GDAL failure (gdal3.js rejects with [{ no, message }]) as an Error with GDAL's message. */
export function gdalError(err: unknown): Error {
  if (err instanceof Error) return err
  const first = Array.isArray(err) ? (err[0] as { message?: string } | undefined) : undefined
  return new Error(first?.message?.trim() || 'GDAL không đọc được dữ liệu ảnh')
}

async function storeTiles(
  tx: Queryable,
  overlayId: string,
  z: number,
  tiles: { x: number; y: number; png: Buffer }[],
): Promise<number> {
  if (tiles.length === 0) return 0
  const values: unknown[] = []
  const rows = tiles.map((t, i) => {
    values.push(t.x, t.y, t.png)
    return `($1, $2, $${3 + i * 3}, $${4 + i * 3}, $${5 + i * 3})`
  })
  await tx.query(`insert into raster_overlay_tiles (overlay_id, z, x, y, png) values ${rows.join(', ')}`, [
    overlayId,
    z,
    ...values,
  ])
  return tiles.reduce((s, t) => s + t.png.length, 0)
}

/** The tile of an RGBA block at (col, row) as its own RGBA buffer; null when fully transparent. */
function cutTile(raw: Buffer, blockWidth: number, col: number, row: number): Buffer | null {
  const out = Buffer.allocUnsafe(TILE_PX * TILE_PX * 4)
  let any = false
  for (let line = 0; line < TILE_PX; line++) {
    const start = ((row * TILE_PX + line) * blockWidth + col * TILE_PX) * 4
    raw.copy(out, line * TILE_PX * 4, start, start + TILE_PX * 4)
  }
  for (let i = 3; i < out.length; i += 4) {
    if (out[i] !== 0) {
      any = true
      break
    }
  }
  return any ? out : null
}

const png = (raw: Buffer, size = TILE_PX) =>
  sharp(raw, { raw: { width: size, height: size, channels: 4 } })
    .png({ compressionLevel: 6 })
    .toBuffer()

/**
 * The deepest zoom, warped from the source a block of tiles at a time, so memory stays bounded
 * whatever the sheet's size: GDAL writes each block to the scratch directory on disk and Node reads
 * one 2048-px block back.
 */
async function warpMaxZoom(tx: Queryable, input: TilerInput, result: TilerResult): Promise<void> {
  const z = input.maxzoom
  const r = tileRange(input.box, z)
  let block = 0
  for (let by = r.y0; by <= r.y1; by += BLOCK_TILES) {
    for (let bx = r.x0; bx <= r.x1; bx += BLOCK_TILES) {
      const cols = Math.min(BLOCK_TILES, r.x1 - bx + 1)
      const rows = Math.min(BLOCK_TILES, r.y1 - by + 1)
      const nw = tileBox(z, bx, by)
      const se = tileBox(z, bx + cols - 1, by + rows - 1)
      const name = `block${++block}`
      await input.gdal
        .gdalwarp(
          input.source,
          [
            '-t_srs',
            'EPSG:3857',
            '-te',
            String(nw.minX),
            String(se.minY),
            String(se.maxX),
            String(nw.maxY),
            '-ts',
            String(cols * TILE_PX),
            String(rows * TILE_PX),
            '-r',
            'bilinear',
            '-dstalpha',
            '-wm',
            '64',
            ...(input.byGcps ? ['-order', '1'] : []),
            '-of',
            'GTiff',
            '--config',
            'GDAL_CACHEMAX',
            '64',
          ],
          input.scratch.gdalName(name),
        )
        .catch((err: unknown) => {
          throw gdalError(err)
        })
      const bytes = readFileSync(input.scratch.real(`${name}.tif`))
      input.scratch.remove(`${name}.tif`)
      const { data, info } = await sharp(bytes)
        .toColourspace('srgb')
        .ensureAlpha()
        .raw()
        .toBuffer({ resolveWithObject: true })
      const batch: { x: number; y: number; png: Buffer }[] = []
      for (let row = 0; row < rows; row++) {
        for (let col = 0; col < cols; col++) {
          const raw = cutTile(data, info.width, col, row)
          if (raw) batch.push({ x: bx + col, y: by + row, png: await png(raw) })
        }
      }
      result.bytes += await storeTiles(tx, input.overlayId, z, batch)
      result.tiles += batch.length
      input.onTiles?.(result.tiles)
    }
  }
}

/** Each shallower zoom from the four tiles below it, read back from the database. */
async function buildParents(tx: Queryable, input: TilerInput, z: number, result: TilerResult): Promise<void> {
  const r = tileRange(input.box, z)
  for (let y = r.y0; y <= r.y1; y++) {
    const batch: { x: number; y: number; png: Buffer }[] = []
    for (let x = r.x0; x <= r.x1; x++) {
      const children = await tx.query<{ x: number; y: number; png: Uint8Array }>(
        `select x, y, png from raster_overlay_tiles where overlay_id = $1 and z = $2 and x between $3 and $3 + 1 and y between $4 and $4 + 1`,
        [input.overlayId, z + 1, 2 * x, 2 * y],
      )
      if (children.length === 0) continue
      const joined = await sharp({
        create: { width: 2 * TILE_PX, height: 2 * TILE_PX, channels: 4, background: { r: 0, g: 0, b: 0, alpha: 0 } },
      })
        .composite(
          children.map((c) => ({
            input: Buffer.from(c.png),
            left: (c.x - 2 * x) * TILE_PX,
            top: (c.y - 2 * y) * TILE_PX,
          })),
        )
        .raw()
        .toBuffer()
      const half = await sharp(joined, { raw: { width: 2 * TILE_PX, height: 2 * TILE_PX, channels: 4 } })
        .resize(TILE_PX, TILE_PX)
        .raw()
        .toBuffer()
      batch.push({ x, y, png: await png(half) })
    }
    result.bytes += await storeTiles(tx, input.overlayId, z, batch)
    result.tiles += batch.length
    input.onTiles?.(result.tiles)
  }
}

/** Renders the overlay's tile pyramid into raster_overlay_tiles, inside the caller's transaction. */
export async function renderPyramid(tx: Queryable, input: TilerInput): Promise<TilerResult> {
  const result: TilerResult = { tiles: 0, bytes: 0 }
  await warpMaxZoom(tx, input, result)
  for (let z = input.maxzoom - 1; z >= input.minzoom; z--) await buildParents(tx, input, z, result)
  return result
}

/** Tiles the pyramid will have at most, for progress and the disk check. */
export function countTiles(box: Box, minzoom: number, maxzoom: number): number {
  let n = 0
  for (let z = minzoom; z <= maxzoom; z++) {
    const r = tileRange(box, z)
    n += (r.x1 - r.x0 + 1) * (r.y1 - r.y0 + 1)
  }
  return n
}
