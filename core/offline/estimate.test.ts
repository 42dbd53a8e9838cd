import { describe, expect, it } from 'vitest'
import {
  ENTRY_OVERHEAD_BYTES,
  estimateBytes,
  FALLBACK_RASTER_TILE_BYTES,
  FALLBACK_TILE_BYTES,
  sampleTiles,
} from './estimate.ts'
import { planArea, type PlanPart } from './tile-grid.ts'

const part = (layer: PlanPart['layer'], z: number, cols: number, rows: number): PlanPart => ({
  layer,
  range: { z, minX: 100, maxX: 100 + cols - 1, minY: 200, maxY: 200 + rows - 1 },
  count: cols * rows,
  box: [0, 0, 1, 1],
})

describe('size estimate of a saved area', () => {
  it('multiplies each layer and zoom by the average of its samples plus the per-entry overhead', () => {
    const plan = [part('basemap', 16, 2, 2), part('parcels', 16, 2, 2), part('parcels', 17, 4, 4)]
    const samples = [
      { layer: 'basemap' as const, z: 16, bytes: 10_000 },
      { layer: 'basemap' as const, z: 16, bytes: 20_000 },
      { layer: 'parcels' as const, z: 16, bytes: 4_000 },
      // An empty tile (204) weighs nothing but its entry.
      { layer: 'parcels' as const, z: 17, bytes: 0 },
      { layer: 'parcels' as const, z: 17, bytes: 3_000 },
    ]
    const expected =
      4 * (15_000 + ENTRY_OVERHEAD_BYTES) + 4 * (4_000 + ENTRY_OVERHEAD_BYTES) + 16 * (1_500 + ENTRY_OVERHEAD_BYTES)
    expect(estimateBytes(plan, samples)).toBe(expected)
  })

  it('borrows the nearest sampled zoom of the same layer, and the fallback size for a layer never sampled', () => {
    const plan = [part('planning', 18, 3, 3), part('basemap', 12, 1, 1)]
    const samples = [
      { layer: 'planning' as const, z: 14, bytes: 9_000 },
      { layer: 'planning' as const, z: 16, bytes: 5_000 },
    ]
    expect(estimateBytes(plan, samples)).toBe(
      9 * (5_000 + ENTRY_OVERHEAD_BYTES) + (FALLBACK_TILE_BYTES + ENTRY_OVERHEAD_BYTES),
    )
  })

  it('samples the middle and the quarter points of each layer and zoom, once each, and one tile of a single-tile range', () => {
    const plan = [part('basemap', 16, 8, 4), part('planning', 12, 1, 1)]
    const picked = sampleTiles(plan)
    // x 100–107 and y 200–203: the middle is (104, 202), the quarters x 102 and 106, y 201 and 203.
    expect(picked.filter((t) => t.layer === 'basemap').map((t) => [t.x, t.y])).toEqual([
      [104, 202],
      [102, 201],
      [106, 203],
      [102, 203],
      [106, 201],
    ])
    expect(picked.filter((t) => t.layer === 'planning')).toEqual([{ layer: 'planning', z: 12, x: 100, y: 200 }])
  })

  it('counts raster overlay tiles within the overlay’s own zooms and bounds, sized by their samples or the raster fallback', () => {
    const bbox: [number, number, number, number] = [108.2, 16.04, 108.22, 16.06]
    const overlay = {
      minzoom: 15,
      maxzoom: 17,
      bounds: [108.205, 16.045, 108.21, 16.05] as [number, number, number, number],
    }
    const plan = planArea(bbox, 14, 18, { 'raster/qhpk-1': overlay })
    expect(plan.map((p) => p.range.z)).toEqual([15, 16, 17])
    expect(plan.every((p) => p.layer === 'raster/qhpk-1')).toBe(true)
    const count = plan.reduce((n, p) => n + p.count, 0)
    expect(estimateBytes(plan, [])).toBe(count * (FALLBACK_RASTER_TILE_BYTES + ENTRY_OVERHEAD_BYTES))
    const sampled = estimateBytes(plan, [{ layer: 'raster/qhpk-1', z: 16, bytes: 30_000 }])
    expect(sampled).toBe(count * (30_000 + ENTRY_OVERHEAD_BYTES))
  })
})
