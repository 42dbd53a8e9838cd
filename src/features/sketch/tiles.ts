import { VectorTile } from '@mapbox/vector-tile'
import { PbfReader } from 'pbf'
import type { TileLayerId } from '#core/contract/tiles.ts'
import { tileCorner, tileRange, type Bbox } from '#core/offline/tile-grid.ts'
import { fetchTileJson } from '../../lib/tilejson.ts'
import type { LngLat } from './geometry.ts'
import { ringOfFeature, type TileParcel, type TileStreet } from './neighbours.ts'

/** What one tile held for the sketch, in lon/lat, with the tile's own box. */
type TileRead = { box: Bbox; parcels: TileParcel[]; streets: TileStreet[] }

const tileBox = (z: number, x: number, y: number): Bbox => {
  const nw = tileCorner(z, x, y)
  const se = tileCorner(z, x + 1, y + 1)
  return [nw.lng, se.lat, se.lng, nw.lat]
}

const num = (v: unknown) =>
  typeof v === 'number' ? v : typeof v === 'string' && v !== '' && Number.isFinite(Number(v)) ? Number(v) : null

/**
 * Reads the tiles of one layer over a box at one zoom, through the service worker: saved areas and
 * recently viewed tiles answer offline, the server otherwise (tiles are public and never counted).
 * A tile that cannot be had is left out.
 */
async function readTiles(layer: TileLayerId, bbox: Bbox, z: number, signal?: AbortSignal): Promise<TileRead[]> {
  const template = (await fetchTileJson(layer, signal)).tiles[0]
  if (!template) return []
  const r = tileRange(bbox, z)
  const jobs: Promise<TileRead | null>[] = []
  for (let x = r.minX; x <= r.maxX; x++)
    for (let y = r.minY; y <= r.maxY; y++) {
      const url = template.replace('{z}', String(z)).replace('{x}', String(x)).replace('{y}', String(y))
      jobs.push(
        fetch(url, { signal })
          .then(async (res) => (res.status === 200 ? decode(new Uint8Array(await res.arrayBuffer()), z, x, y) : null))
          .catch(() => null),
      )
    }
  return (await Promise.all(jobs)).filter((t): t is TileRead => t !== null)
}

function decode(bytes: Uint8Array, z: number, x: number, y: number): TileRead {
  const tile = new VectorTile(new PbfReader(bytes))
  const parcels: TileParcel[] = []
  const streets: TileStreet[] = []
  const parcelLayer = tile.layers.parcels
  for (let i = 0; parcelLayer && i < parcelLayer.length; i++) {
    const f = parcelLayer.feature(i)
    const ring = ringOfFeature(f.toGeoJSON(x, y, z).geometry as { type: string; coordinates: unknown })
    if (ring)
      parcels.push({
        id: String(f.properties.id ?? f.id),
        sheetNo: num(f.properties.sheet_no),
        parcelNo: num(f.properties.parcel_no),
        ring,
      })
  }
  const streetLayer = tile.layers.streets
  for (let i = 0; streetLayer && i < streetLayer.length; i++) {
    const f = streetLayer.feature(i)
    const g = f.toGeoJSON(x, y, z).geometry
    const lines = g.type === 'LineString' ? [g.coordinates] : g.type === 'MultiLineString' ? g.coordinates : []
    for (const line of lines) streets.push({ name: String(f.properties.name ?? ''), line: line as LngLat[] })
  }
  return { box: tileBox(z, x, y), parcels, streets }
}

/** The zooms tried for parcels, best first: z18 is what a saved area usually holds and precise to ~30 cm. */
const PARCEL_ZOOMS = [18, 19, 20, 17, 16]
/** Basemap streets are drawn to z18. */
const STREET_ZOOMS = [16, 18, 17, 15, 14]

/** The parcels around a box, from the first zoom whose tiles are available. */
export async function parcelsAround(
  bbox: Bbox,
  signal?: AbortSignal,
): Promise<{ z: number; tiles: TileRead[] } | null> {
  for (const z of PARCEL_ZOOMS) {
    const tiles = await readTiles('parcels', bbox, z, signal).catch(() => [])
    if (tiles.some((t) => t.parcels.length > 0)) return { z, tiles }
  }
  return null
}

export async function streetsAround(bbox: Bbox, signal?: AbortSignal): Promise<TileStreet[]> {
  for (const z of STREET_ZOOMS) {
    const tiles = await readTiles('basemap', bbox, z, signal).catch(() => [])
    const streets = tiles.flatMap((t) => t.streets)
    if (streets.length > 0) return streets
  }
  return []
}

/**
 * The whole outline of one parcel from tiles: a piece of it that lies inside its tile's own box (not
 * cut at the tile's edge). Null when every piece was cut.
 */
export function wholeParcelIn(tiles: readonly TileRead[], id: string): TileParcel | null {
  for (const t of tiles) {
    const [w, s, e, n] = t.box
    for (const p of t.parcels) {
      if (p.id !== id) continue
      if (p.ring.every(([lng, lat]) => lng > w && lng < e && lat > s && lat < n)) return p
    }
  }
  return null
}

/** Which parcel a point falls in, among tile parcels. */
export function parcelAt(tiles: readonly TileRead[], lat: number, lng: number): TileParcel | null {
  for (const t of tiles)
    for (const p of t.parcels) {
      let inside = false
      for (let i = 0, j = p.ring.length - 1; i < p.ring.length; j = i++) {
        const [xi, yi] = p.ring[i]!
        const [xj, yj] = p.ring[j]!
        if (yi > lat !== yj > lat && lng < ((xj - xi) * (lat - yi)) / (yj - yi) + xi) inside = !inside
      }
      if (inside) return p
    }
  return null
}

/** How far a tile of zoom z may move a corner: one pixel of a 512-px tile, at the tile's latitude. */
export function tilePrecisionM(z: number, lat: number): number {
  return (40_075_016.686 * Math.cos((lat * Math.PI) / 180)) / 2 ** z / 512
}
