import { describe, expect, it } from 'vitest'
import {
  MAX_LAT,
  planArea,
  planCount,
  planTiles,
  tileCorner,
  tileRange,
  type Bbox,
  type LayerExtent,
} from './tile-grid.ts'

// A box in the demo ward: 106.69–106.71 E, 10.79–10.80 N. By hand, x = (lng + 180) / 360 · 2^z and
// y = (1 − ln(tan φ + sec φ) / π) / 2 · 2^z:
//   z12: x 3261.90 … 3262.12 → 3261–3262 (2), y 1924.39 … 1924.50 → 1924 (1)           →   2 tiles
//   z14: x 13047.58 … 13048.49 → 2 columns,    y 7697.54 … 7698.01 → 2 rows             →   4 tiles
//   z16: x 52190.32 … 52193.96 → 4 columns,    y 30790.17 … 30792.03 → 3 rows          →  12 tiles
//   z18: x 208761.29 … 208775.85 → 15 columns, y 123160.69 … 123168.10 → 9 rows       → 135 tiles
const ward: Bbox = [106.69, 10.79, 106.71, 10.8]
const world: Bbox = [-180, -MAX_LAT, 180, MAX_LAT]

describe('tile enumeration on the XYZ grid', () => {
  it('finds the tiles over a box at each zoom as counted by hand', () => {
    const count = (z: number) => {
      const r = tileRange(ward, z)
      return (r.maxX - r.minX + 1) * (r.maxY - r.minY + 1)
    }
    expect(tileRange(ward, 12)).toEqual({ z: 12, minX: 3261, maxX: 3262, minY: 1924, maxY: 1924 })
    expect([12, 14, 16, 18].map(count)).toEqual([2, 4, 12, 135])
  })

  it('does not take the neighbour tile a box edge only touches', () => {
    // The north-east quarter of the world, whose edges are tile edges: 1, 4, 16 tiles at z1–z3.
    const quarter: Bbox = [0, 0, 180, MAX_LAT]
    expect(planCount(planArea(quarter, 1, 3, { basemap: { minzoom: 0, maxzoom: 22, bounds: world } }))).toBe(1 + 4 + 16)
    const nw = tileCorner(3, 4, 2)
    expect(tileRange([nw.lng, -10, 90, nw.lat], 3)).toMatchObject({ minX: 4, maxX: 5, minY: 2 })
  })

  it('counts each layer only within its own zoom range and data bounds', () => {
    const layers: Record<'basemap' | 'planning' | 'parcels', LayerExtent> = {
      basemap: { minzoom: 10, maxzoom: 18, bounds: world },
      planning: { minzoom: 12, maxzoom: 18, bounds: world },
      // Parcels start at z16; their data covers only the western half of the box.
      parcels: { minzoom: 16, maxzoom: 20, bounds: [106.6, 10.7, 106.7, 10.9] },
    }
    const plan = planArea(ward, 12, 16, layers)
    const perLayer = (id: string) => plan.filter((p) => p.layer === id).reduce((s, p) => s + p.count, 0)
    // By hand as above, z13: x 6523.79 … 6524.25, y 3848.77 … 3849.00 → 2 × 2; z15: x 26095.16 … 26096.98,
    // y 15395.09 … 15396.01 → 2 × 2. So z12–z16: 2 + 4 + 4 + 4 + 12 = 26 tiles for each full layer.
    expect(perLayer('basemap')).toBe(26)
    expect(perLayer('planning')).toBe(26)
    // Parcels: z16 only, over 106.69–106.70 E: x 52190.32 … 52192.14 → 3 columns × 3 rows.
    expect(perLayer('parcels')).toBe(9)
    expect(plan.map((p) => p.range.z)).toEqual([...plan.map((p) => p.range.z)].sort((a, b) => a - b))
  })

  it('counts the whole world as 4^z tiles per zoom', () => {
    expect(planCount(planArea(world, 0, 3, { basemap: { minzoom: 0, maxzoom: 22, bounds: world } }))).toBe(
      1 + 4 + 16 + 64,
    )
  })

  it('lists every planned tile once, in order, and resumes from an index', () => {
    const plan = planArea(ward, 14, 16, {
      basemap: { minzoom: 10, maxzoom: 18, bounds: world },
      planning: { minzoom: 12, maxzoom: 18, bounds: world },
    })
    const all = [...planTiles(plan)]
    expect(all).toHaveLength(planCount(plan))
    expect(new Set(all.map((t) => `${t.layer}/${t.z}/${t.x}/${t.y}`)).size).toBe(all.length)
    expect(all.map((t) => t.index)).toEqual(all.map((_, i) => i))
    const rest = [...planTiles(plan, 7)]
    expect(rest).toEqual(all.slice(7))
  })
})
