import { describe, expect, it } from 'vitest'
import type { OverlayTileJson, TileJson } from '#core/contract/tiles.ts'
import { areaLayers, areaTileUrls, packOrigin } from './areas.ts'

const planning = {
  tiles: ['https://qh.example.vn/tiles/planning/{z}/{x}/{y}.pbf'],
  minzoom: 12,
  maxzoom: 18,
  bounds: [108.2, 16.04, 108.22, 16.06],
  data_date: '2025-03-20',
} as unknown as TileJson

const overlay = {
  id: 'qhpk-hoa-cuong',
  tiles: ['https://qh.example.vn/tiles/raster/qhpk-hoa-cuong/{z}/{x}/{y}.png'],
  minzoom: 15,
  maxzoom: 16,
  bounds: [108.205, 16.045, 108.21, 16.05],
  approved_at: '2024-05-20',
} as unknown as OverlayTileJson

describe('saved area layers', () => {
  it('saves the raster overlays shown on the map with the vector layers, each within its own zooms and bounds, tile by tile', () => {
    const layers = areaLayers({ planning }, [overlay])
    expect(layers['raster/qhpk-hoa-cuong']).toEqual({
      minzoom: 15,
      maxzoom: 16,
      bounds: overlay.bounds,
      template: overlay.tiles[0],
      dataDate: '2024-05-20',
    })
    const urls = [...areaTileUrls({ bbox: [108.2, 16.04, 108.22, 16.06], minZoom: 14, maxZoom: 16, layers })]
    const raster = urls.filter((u) => u.includes('/tiles/raster/'))
    expect(raster.length).toBeGreaterThan(0)
    expect(raster.every((u) => /\/tiles\/raster\/qhpk-hoa-cuong\/1[56]\/\d+\/\d+\.png$/.test(u))).toBe(true)
    expect(urls.some((u) => u.includes('/tiles/planning/14/'))).toBe(true)
    expect(packOrigin('planning', planning.tiles[0]!)).toBe('https://qh.example.vn')
    expect(packOrigin('raster/qhpk-hoa-cuong', overlay.tiles[0]!)).toBeNull()
  })
})
