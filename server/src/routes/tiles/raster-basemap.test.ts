import { describe, expect, it } from 'vitest'
import { tileJson } from '#core/contract/tiles.ts'
import { createTestApp } from '../../testing/test-app.ts'

describe('optional raster basemap in the TileJSON', () => {
  it('adds TILE_URL and its attribution to the basemap TileJSON only', async () => {
    const t = await createTestApp({
      TILE_URL: 'https://tiles.example.vn/{z}/{x}/{y}.png',
      TILE_ATTRIBUTION: '© Bản đồ nền Ví Dụ',
    })
    const basemap = await t.request('/tiles/basemap.json')
    expect(basemap.status).toBe(200)
    expect(tileJson.parse(basemap.body).raster).toEqual({
      tiles: ['https://tiles.example.vn/{z}/{x}/{y}.png'],
      attribution: '© Bản đồ nền Ví Dụ',
      maxzoom: 18,
    })
    const planning = await t.request('/tiles/planning.json')
    expect(planning.body.raster).toBeUndefined()
  })

  it('leaves it out when TILE_URL is not set', async () => {
    const t = await createTestApp()
    const basemap = await t.request('/tiles/basemap.json')
    expect(basemap.status).toBe(200)
    expect(basemap.body.raster).toBeUndefined()
  })
})
