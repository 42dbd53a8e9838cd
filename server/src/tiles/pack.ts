import { z } from 'zod'
import { bboxParam } from '#core/contract/lookups.ts'
import { tileLayerIds, type TileLayerId } from '#core/contract/tiles.ts'
import { planCount, rangeSize, tileRange, type PlanPart } from '#core/offline/tile-grid.ts'
import { packEntryHead, packHeader, planRects, PACK_MAX_TILES, type PartRect } from '#core/offline/tile-pack.ts'
import type { TileService } from './service.ts'

const MAX_ZOOM = 22

const zoomList = z
  .string()
  .regex(
    /^\d{1,2}(-\d{1,2})?(,\d{1,2}(-\d{1,2})?)*$/,
    'zooms phải là danh sách mức zoom, ví dụ 16 hoặc 12-18 hoặc 12,14.',
  )
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
      .refine(
        (ls): ls is TileLayerId[] => ls.every((l) => (tileLayerIds as readonly string[]).includes(l)),
        'Lớp bản đồ phải là basemap, planning hoặc parcels.',
      ),
  })
  .transform((q, ctx) => {
    const parts: PlanPart[] = []
    const box = q.bbox as [number, number, number, number]
    for (const zoom of q.zooms) {
      const range = tileRange(box, zoom)
      for (const layer of new Set<TileLayerId>(q.layers)) parts.push({ layer, range, count: rangeSize(range), box })
      if (planCount(parts) > PACK_MAX_TILES) {
        ctx.addIssue({
          code: 'custom',
          path: ['bbox'],
          message: `Một gói chứa tối đa ${PACK_MAX_TILES} ô; hãy chia vùng hoặc bớt mức zoom.`,
        })
        return z.NEVER
      }
    }
    return parts
  })

/**
 * Tiles rendered together: a band of whole rows (or a piece of a wide row) of one layer and zoom, one
 * statement. Bounds what one statement brings into memory (a z16 band of a dense city is tens of
 * thousands of parcels) while keeping a pack to a few statements.
 */
const BAND_TILES = 16

/** Bands rendered ahead of the one being written: the next is rendered while this one goes out. */
const BANDS_AHEAD = 2

/** A band's entries, heads and gzipped tiles, as one chunk: one write to the socket instead of two per tile. */
async function bandBytes(service: TileService, version: number, band: PartRect): Promise<Uint8Array> {
  const rendered = await service.tiles(version, band.layer as TileLayerId, band.range)
  const pieces = rendered.flatMap((tile, i) => {
    const head = packEntryHead(band.tiles[i]!, tile?.gzip ?? null)
    return tile ? [head, tile.gzip] : [head]
  })
  const out = new Uint8Array(pieces.reduce((n, p) => n + p.length, 0))
  let at = 0
  for (const p of pieces) {
    out.set(p, at)
    at += p.length
  }
  return out
}

/**
 * The pack as a byte stream: the header, then each tile in order, band by band. Rendering runs a band
 * ahead of writing and follows the reader's pace (a slow link does not pile tiles up in memory); a
 * client that goes away stops it.
 */
export function packStream(
  service: TileService,
  version: number,
  parts: readonly PlanPart[],
): ReadableStream<Uint8Array> {
  const bands = planRects(parts, 0, BAND_TILES)
  const ahead: Promise<Uint8Array>[] = []
  const fill = () => {
    while (ahead.length < BANDS_AHEAD) {
      const next = bands.next()
      if (next.done) return
      const p = bandBytes(service, version, next.value)
      // A failed band fails the stream when its turn comes; the ones behind it must not go unhandled.
      p.catch(() => undefined)
      ahead.push(p)
    }
  }
  return new ReadableStream<Uint8Array>(
    {
      start(controller) {
        controller.enqueue(packHeader(version, planCount(parts)))
        fill()
      },
      async pull(controller) {
        const first = ahead.shift()
        if (!first) return controller.close()
        const chunk = await first
        fill()
        controller.enqueue(chunk)
        if (ahead.length === 0) controller.close()
      },
      cancel() {
        // Bands already started finish into the tile cache.
        bands.return(undefined)
        ahead.length = 0
      },
    },
    // About a pack's worth of tiles may wait for the reader before rendering pauses.
    { highWaterMark: 64 * 1024, size: (chunk) => chunk.byteLength },
  )
}
