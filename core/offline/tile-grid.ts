import type { TileLayerId } from '../contract/tiles.ts'

/**
 * The XYZ tile grid of Web Mercator (EPSG:3857), the same grid the server cuts its tiles on and
 * OpenLayers requests them from. OpenLayers can draw tiles but cannot list those covering an area, so
 * saving an area offline enumerates them here.
 */

/** [west, south, east, north] in WGS84 degrees. */
export type Bbox = [number, number, number, number]
export type TileXyz = { z: number; x: number; y: number }
/** A vector tile set, or a raster planning overlay as `raster/<overlay id>`. */
export type LayerKey = TileLayerId | `raster/${string}`
export type LayerTile<L extends LayerKey = LayerKey> = TileXyz & { layer: L }

/** Web Mercator stops at this latitude; the grid is square up to it. */
export const MAX_LAT = 85.0511287798066

const clamp = (v: number, lo: number, hi: number) => Math.min(hi, Math.max(lo, v))

/** Tile column at zoom z, as a fraction (the integer part is the tile). */
export function tileX(lng: number, z: number): number {
  return ((clamp(lng, -180, 180) + 180) / 360) * 2 ** z
}

/** Tile row at zoom z, counted from the north, as a fraction. */
export function tileY(lat: number, z: number): number {
  const rad = (clamp(lat, -MAX_LAT, MAX_LAT) * Math.PI) / 180
  return ((1 - Math.log(Math.tan(rad) + 1 / Math.cos(rad)) / Math.PI) / 2) * 2 ** z
}

/** The tile's north-west corner in degrees. */
export function tileCorner(z: number, x: number, y: number): { lng: number; lat: number } {
  const n = 2 ** z
  const lng = (x / n) * 360 - 180
  const lat = (Math.atan(Math.sinh(Math.PI * (1 - (2 * y) / n))) * 180) / Math.PI
  return { lng, lat }
}

export type TileRange = { z: number; minX: number; maxX: number; minY: number; maxY: number }

/**
 * The tiles at zoom z that overlap the box (inclusive ranges). A box edge lying exactly on a tile
 * boundary does not pull in the neighbouring tile, which it only touches.
 */
export function tileRange(bbox: Bbox, z: number): TileRange {
  const [w, s, e, n] = bbox
  const last = 2 ** z - 1
  // Degrees → tiles loses a few ulps; an edge within a millionth of a tile counts as on the boundary.
  const low = (v: number) => Math.floor(v + 1e-6)
  const high = (v: number) => Math.ceil(v - 1e-6) - 1
  const minX = clamp(low(tileX(w, z)), 0, last)
  const maxX = clamp(high(tileX(e, z)), minX, last)
  const minY = clamp(low(tileY(n, z)), 0, last)
  const maxY = clamp(high(tileY(s, z)), minY, last)
  return { z, minX, maxX, minY, maxY }
}

export function rangeSize(r: TileRange): number {
  return (r.maxX - r.minX + 1) * (r.maxY - r.minY + 1)
}

/** The overlap of two boxes, or null when they do not overlap. */
export function intersectBbox(a: Bbox, b: Bbox): Bbox | null {
  const out: Bbox = [Math.max(a[0], b[0]), Math.max(a[1], b[1]), Math.min(a[2], b[2]), Math.min(a[3], b[3])]
  return out[0] < out[2] && out[1] < out[3] ? out : null
}

/** What a layer's TileJSON says about where and at which zooms it has tiles. */
export type LayerExtent = { minzoom: number; maxzoom: number; bounds: Bbox }

/** One layer at one zoom: the tiles to fetch for an area, the range those of `box` (tileRange) at that zoom. */
export type PlanPart = { layer: LayerKey; range: TileRange; count: number; box: Bbox }

/**
 * The tiles an area needs: for each layer, the zooms the user chose within the layer's own zoom range,
 * and only where the layer has data (its TileJSON bounds). Ordered layer by layer, low zooms first, so
 * a download that stops half way leaves whole overview levels behind.
 */
export function planArea(
  bbox: Bbox,
  minZoom: number,
  maxZoom: number,
  layers: Partial<Record<LayerKey, LayerExtent>>,
): PlanPart[] {
  const parts: PlanPart[] = []
  for (let z = minZoom; z <= maxZoom; z++) {
    for (const [layer, extent] of Object.entries(layers) as [LayerKey, LayerExtent][]) {
      if (z < extent.minzoom || z > extent.maxzoom) continue
      const box = intersectBbox(bbox, extent.bounds)
      if (!box) continue
      const range = tileRange(box, z)
      parts.push({ layer, range, count: rangeSize(range), box })
    }
  }
  return parts
}

export function planCount(plan: readonly PlanPart[]): number {
  return plan.reduce((sum, p) => sum + p.count, 0)
}

/** The plan's tiles in order, starting at index `from` (a resumed download skips what it has done). */
export function* planTiles(plan: readonly PlanPart[], from = 0): Generator<LayerTile & { index: number }> {
  let index = 0
  for (const { layer, range, count } of plan) {
    if (index + count <= from) {
      index += count
      continue
    }
    const width = range.maxX - range.minX + 1
    for (let i = Math.max(0, from - index); i < count; i++) {
      yield { layer, z: range.z, x: range.minX + (i % width), y: range.minY + Math.floor(i / width), index: index + i }
    }
    index += count
  }
}

/** Width and height of the box in metres (at its middle latitude), for "2,1 × 1,8 km". */
export function bboxSizeMeters(bbox: Bbox): { width: number; height: number } {
  const R = 6371008.8
  const midLat = ((bbox[1] + bbox[3]) / 2) * (Math.PI / 180)
  const width = ((bbox[2] - bbox[0]) * Math.PI * R * Math.cos(midLat)) / 180
  const height = ((bbox[3] - bbox[1]) * Math.PI * R) / 180
  return { width, height }
}
