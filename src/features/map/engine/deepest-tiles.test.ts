import { describe, expect, it, vi } from 'vitest'
import MVT from 'ol/format/MVT'
import RenderFeature from 'ol/render/Feature'
import { get as getProjection } from 'ol/proj'
import { createXYZ } from 'ol/tilegrid'
import type { TileCoord } from 'ol/tilecoord'
import VectorTile from 'ol/VectorTile'
import { deepestTileLoader } from './deepest-tiles.ts'

const grid = createXYZ({ tileSize: 256, maxZoom: 22 })
const url = ([z, x, y]: TileCoord) => `/tiles/parcels/${z}/${x}/${y}.pbf`

/** Loads the tile at `coord` through the loader with the given answers by URL; resolves with what it read. */
async function load(coord: TileCoord, answers: Record<string, Response | 'network'>) {
  const format = new MVT()
  const read = vi.spyOn(format, 'readFeatures').mockReturnValue([new RenderFeature('Point', [0, 0], [], 2, {}, 1)])
  const fetched: string[] = []
  const fetchMock = vi.fn(async (input: RequestInfo | URL) => {
    const u = String(input)
    fetched.push(u)
    const a = answers[u]
    if (!a || a === 'network') throw new TypeError('Failed to fetch')
    return a
  }) as unknown as typeof fetch
  const loader = deepestTileLoader({ format, grid, url, minZoom: 16, fetch: fetchMock })
  const tile = new VectorTile(coord, 0, url(coord), format, loader)
  // What the source sets before loading a tile.
  tile.extent = grid.getTileCoordExtent(coord)
  tile.projection = getProjection('EPSG:3857')!
  const LOADING = 1
  const done = new Promise<void>((resolve) =>
    tile.addEventListener('change', () => {
      if (tile.getState() !== LOADING) resolve()
    }),
  )
  tile.load()
  await done
  return { tile, fetched, read }
}

describe('tiles deeper than the device holds', () => {
  it('draws a tile the device lacks from the deepest tile above it that it has, read in that tile’s extent', async () => {
    const { tile, fetched, read } = await load([20, 832312, 492688], {
      '/tiles/parcels/18/208078/123172.pbf': new Response(new ArrayBuffer(8)),
      '/tiles/parcels/19/416156/246344.pbf': 'network',
    })
    expect(fetched).toEqual([
      '/tiles/parcels/20/832312/492688.pbf',
      '/tiles/parcels/19/416156/246344.pbf',
      '/tiles/parcels/18/208078/123172.pbf',
    ])
    expect(read.mock.calls[0]![1]).toEqual({
      extent: grid.getTileCoordExtent([18, 208078, 123172]),
      featureProjection: getProjection('EPSG:3857'),
    })
    expect(tile.getFeatures()).toHaveLength(1)
  })

  it('takes the tile itself when it is there, and an empty answer as empty without looking further', async () => {
    const own = await load([17, 104039, 61586], {
      '/tiles/parcels/17/104039/61586.pbf': new Response(new ArrayBuffer(8)),
    })
    expect(own.fetched).toHaveLength(1)
    expect(own.read.mock.calls[0]![1]?.extent).toEqual(grid.getTileCoordExtent([17, 104039, 61586]))
    const empty = await load([17, 104039, 61586], {
      '/tiles/parcels/17/104039/61586.pbf': new Response(null, { status: 204 }),
    })
    expect(empty.fetched).toHaveLength(1)
    expect(empty.tile.getFeatures()).toEqual([])
  })

  it('fails the tile when no zoom down to the layer’s first has it', async () => {
    const { tile, fetched } = await load([17, 104039, 61586], {})
    expect(fetched).toEqual(['/tiles/parcels/17/104039/61586.pbf', '/tiles/parcels/16/52019/30793.pbf'])
    expect(tile.getState()).toBe(3)
  })
})
