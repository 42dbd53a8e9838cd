import { z } from 'zod'
import { bboxParam } from '#core/contract/lookups.ts'
import { tileLayerIds, type TileLayerId } from '#core/contract/tiles.ts'
import { tileRange, type LayerTile } from '#core/offline/tile-grid.ts'
import { packEntryHead, packHeader, PACK_MAX_TILES } from '#core/offline/tile-pack.ts'
import type { TileService } from './service.ts'

const MAX_ZOOM = 22

const zoomList = z
  .string()
  .regex(/^\d{1,2}(-\d{1,2})?(,\d{1,2}(-\d{1,2})?)*$/, 'zooms phải là danh sách mức zoom, ví dụ 16 hoặc 12-18 hoặc 12,14.')
  .transform((s) => {
    const out = new Set<number>()
    for (const part of s.split(',')) {
      const [a, b = a] = part.split('-').map(Number) as [number, number?]
      for (let zoom = a; zoom <= b; zoom++) out.add(zoom)
    }
    return [...out].sort((p, q) => p - q)
  })
  .refine((zs) => zs.length > 0, 'zooms không chọn mức zoom nào.')
  .refine((zs) => zs.every((zoom) => zoom <= MAX_ZOOM), `Mức zoom phải từ 0 đến ${MAX_ZOOM}.`)

/**
 * The pack request: a box in degrees, zooms, layers. Every tile of each layer at each zoom that the
 * box overlaps, in that order (zoom, then the layers as listed, then row by row), as the pack's entries.
 */
export const packQuery = z
  .object({
    bbox: bboxParam,
    zooms: zoomList,
    layers: z
      .string()
      .transform((s) => s.split(','))
      .refine((ls): ls is TileLayerId[] => ls.every((l) => (tileLayerIds as readonly string[]).includes(l)), 'Lớp bản đồ phải là basemap, planning hoặc parcels.'),
  })
  .transform((q, ctx) => {
    const tiles: LayerTile<TileLayerId>[] = []
    for (const zoom of q.zooms) {
      const r = tileRange(q.bbox as [number, number, number, number], zoom)
      const count = (r.maxX - r.minX + 1) * (r.maxY - r.minY + 1) * new Set(q.layers).size
      if (tiles.length + count > PACK_MAX_TILES) {
        ctx.addIssue({ code: 'custom', path: ['bbox'], message: `Một gói chứa tối đa ${PACK_MAX_TILES} ô; hãy chia vùng hoặc bớt mức zoom.` })
        return z.NEVER
      }
      for (const layer of new Set<TileLayerId>(q.layers)) {
        for (let y = r.minY; y <= r.maxY; y++) for (let x = r.minX; x <= r.maxX; x++) tiles.push({ layer, z: zoom, x, y })
      }
    }
    return tiles
  })

/** Tiles rendered ahead of the one being written: a cold pack keeps the database pool busy, not one connection. */
const RENDER_AHEAD = 4

/**
 * The pack as a byte stream: the header, then each tile as it is ready, in order. Rendering runs a few
 * tiles ahead of writing and follows the reader's pace (a slow link does not pile tiles up in memory);
 * a client that goes away stops it.
 */
export function packStream(service: TileService, version: number, tiles: readonly LayerTile<TileLayerId>[]): ReadableStream<Uint8Array> {
  let next = 0
  const ahead: Promise<Uint8Array[]>[] = []
  const entry = (t: LayerTile<TileLayerId>) =>
    service.tile(version, t.layer, t.z, t.x, t.y).then((tile) => {
      const head = packEntryHead(t, tile?.gzip ?? null)
      return tile ? [head, tile.gzip] : [head]
    })
  const fill = () => {
    while (ahead.length < RENDER_AHEAD && next < tiles.length) {
      const p = entry(tiles[next++]!)
      // A failed tile fails the stream when its turn comes; the ones behind it must not go unhandled.
      p.catch(() => undefined)
      ahead.push(p)
    }
  }
  return new ReadableStream<Uint8Array>(
    {
      start(controller) {
        controller.enqueue(packHeader(version, tiles.length))
        fill()
      },
      async pull(controller) {
        const first = ahead.shift()
        if (!first) return controller.close()
        const parts = await first
        fill()
        for (const p of parts) controller.enqueue(p)
        if (ahead.length === 0) controller.close()
      },
      cancel() {
        next = tiles.length
        // Renders already started finish into the tile cache.
        ahead.length = 0
      },
    },
    // About a pack's worth of tiles may wait for the reader before rendering pauses.
    { highWaterMark: 64 * 1024, size: (chunk) => chunk.byteLength },
  )
}
