import { type LayerKey, type LayerTile, type PlanPart } from './tile-grid.ts'

/**
 * How big a saved area will be, before downloading it: the planned tile counts times the average
 * size of a few sample tiles per layer and zoom (an empty tile, 204, weighs nothing but its entry).
 */

/** One sampled tile: its layer, zoom and the bytes it took (0 for an empty tile). */
export type SizeSample = { layer: LayerKey; z: number; bytes: number }

/** What the browser keeps per cached response besides the body (URL, headers, index), roughly. */
export const ENTRY_OVERHEAD_BYTES = 600
/** Used when no tile of a layer could be sampled (e.g. offline): a middling vector tile. */
export const FALLBACK_TILE_BYTES = 8 * 1024
/** The same for a raster overlay: a 256-px PNG of a scanned plan. */
export const FALLBACK_RASTER_TILE_BYTES = 40 * 1024

/**
 * A few tiles per layer and zoom to sample: the middle and the four quarter points of the range. Not
 * the corners: the plan is cut to the data's bounds, so its edge tiles are often half empty and would
 * make the estimate too small.
 */
export function sampleTiles(plan: readonly PlanPart[], perPart = 5): LayerTile[] {
  const out: LayerTile[] = []
  for (const { layer, range } of plan) {
    const at = (share: number, lo: number, hi: number) => lo + Math.floor((hi - lo + 1) * share)
    const seen = new Set<string>()
    for (const [sx, sy] of [
      [0.5, 0.5],
      [0.25, 0.25],
      [0.75, 0.75],
      [0.25, 0.75],
      [0.75, 0.25],
    ] as const) {
      const x = at(sx, range.minX, range.maxX)
      const y = at(sy, range.minY, range.maxY)
      const key = `${x}/${y}`
      if (seen.has(key) || seen.size >= perPart) continue
      seen.add(key)
      out.push({ layer, z: range.z, x, y })
    }
  }
  return out
}

/** The average sample size for the layer at the zoom nearest to z, or undefined without samples. */
function averageNear(samples: readonly SizeSample[], layer: LayerKey, z: number): number | undefined {
  const ofLayer = samples.filter((s) => s.layer === layer)
  if (ofLayer.length === 0) return undefined
  const nearest = ofLayer.reduce((best, s) => (Math.abs(s.z - z) < Math.abs(best - z) ? s.z : best), ofLayer[0]!.z)
  const at = ofLayer.filter((s) => s.z === nearest)
  return at.reduce((sum, s) => sum + s.bytes, 0) / at.length
}

/**
 * Estimated bytes on the device for the plan. Each layer and zoom uses its own samples; a zoom without
 * samples borrows the nearest sampled zoom of the same layer, a layer without any the fallback size
 * (larger for raster overlays).
 */
export function estimateBytes(plan: readonly PlanPart[], samples: readonly SizeSample[]): number {
  let total = 0
  for (const { layer, range, count } of plan) {
    const avg =
      averageNear(samples, layer, range.z) ??
      (layer.startsWith('raster/') ? FALLBACK_RASTER_TILE_BYTES : FALLBACK_TILE_BYTES)
    total += count * (avg + ENTRY_OVERHEAD_BYTES)
  }
  return Math.round(total)
}
