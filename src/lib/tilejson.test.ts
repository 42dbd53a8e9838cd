import { describe, expect, it } from 'vitest'
import { absoluteTiles } from './tilejson.ts'

describe('tile URLs of a TileJSON', () => {
  it('reads a relative template against the TileJSON’s own address, braces kept as they are', () => {
    const tj = absoluteTiles(
      { tiles: ['/tiles/parcels/{z}/{x}/{y}.pbf'] },
      'http://192.168.1.20:3000/tiles/parcels.json',
    )
    expect(tj.tiles).toEqual(['http://192.168.1.20:3000/tiles/parcels/{z}/{x}/{y}.pbf'])
  })

  it('leaves a template that is already absolute (PUBLIC_URL) alone', () => {
    const tiles = ['https://quyhoach.example.vn/tiles/planning/{z}/{x}/{y}.pbf']
    expect(absoluteTiles({ tiles }, 'http://localhost:3000/tiles/planning.json').tiles).toEqual(tiles)
  })
})
