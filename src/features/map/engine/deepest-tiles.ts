import type { FeatureLike } from 'ol/Feature'
import type MVT from 'ol/format/MVT'
import type { LoadFunction } from 'ol/Tile'
import type { TileCoord } from 'ol/tilecoord'
import type TileGrid from 'ol/tilegrid/TileGrid'
import type VectorTile from 'ol/VectorTile'

type Answer = { data: ArrayBuffer | null; coord: TileCoord } | null

/**
 * Loads a vector tile, or, when it cannot be had (offline past the deepest zoom an area was saved at,
 * a tile the server failed), the deepest tile above it that can: an area saved for z15–19 still shows
 * its parcels and their numbers at z20. The larger tile's features are read in its own extent, so
 * they land where they belong; the renderer keeps only what falls in this tile.
 */
export function deepestTileLoader(opts: {
  format: MVT
  grid: TileGrid
  /** The URL of a tile, or undefined where the layer holds no data. */
  url: (coord: TileCoord) => string | undefined
  /** The layer's first zoom: no tile above it is tried. */
  minZoom: number
  fetch?: typeof fetch
}): LoadFunction {
  const get = opts.fetch ?? ((input, init) => fetch(input, init))
  async function read(coord: TileCoord): Promise<Answer> {
    let [z, x, y] = coord as [number, number, number]
    for (; z >= opts.minZoom; z -= 1, x = Math.floor(x / 2), y = Math.floor(y / 2)) {
      const url = opts.url([z, x, y])
      if (url === undefined) return { data: null, coord: [z, x, y] }
      // As OpenLayers asks (and as the first tiles are preloaded): CORS mode, same-origin credentials.
      const res = await get(url, { mode: 'cors', credentials: 'same-origin' }).catch(() => null)
      if (res?.status === 204) return { data: null, coord: [z, x, y] }
      if (res?.ok) return { data: await res.arrayBuffer(), coord: [z, x, y] }
    }
    return null
  }
  return (tile) => {
    const vt = tile as VectorTile<FeatureLike>
    vt.setLoader((_extent, _resolution, projection) => {
      void read(vt.getTileCoord()).then(
        (answer) => {
          if (!answer) return vt.onError()
          const extent = opts.grid.getTileCoordExtent(answer.coord)
          vt.setFeatures(
            answer.data ? opts.format.readFeatures(answer.data, { extent, featureProjection: projection }) : [],
          )
        },
        () => vt.onError(),
      )
    })
  }
}
