import type { TileJson, TileLayerId } from '#core/contract/tiles.ts'

type TileSets = Partial<Record<TileLayerId, TileJson>>
/** West, south, east, north in degrees. */
export type Bounds = [number, number, number, number]

/** What the server holds beyond the national boundaries, as its TileJSONs say: for a place where it has nothing. */
export type ServerData = {
  /** Where the parcels and plans are (the demo's included); null when the server has none. */
  bounds: Bounds | null
  /** A few wards the parcels cover, with their province. */
  wards: string[]
  /** The datasets of parcels and of plans with their source and date, each set's list once. */
  datasets: string[]
}

const everywhere = (b: Bounds) => b[0] <= -180 && b[2] >= 180

/**
 * Where the imported data is: the union of the parcels' and the plans' bounds. Not the basemap's, which
 * spans the whole country once it draws the national boundaries.
 */
export function importedBounds(sets: TileSets): Bounds | null {
  const boxes = [sets.parcels, sets.planning]
    .map((tj) => tj?.bounds)
    .filter((b): b is Bounds => b !== undefined && !everywhere(b))
  if (boxes.length === 0) return null
  return [
    Math.min(...boxes.map((b) => b[0])),
    Math.min(...boxes.map((b) => b[1])),
    Math.max(...boxes.map((b) => b[2])),
    Math.max(...boxes.map((b) => b[3])),
  ]
}

/** Whether two boxes overlap. */
export function boundsMeet(a: Bounds, b: Bounds): boolean {
  return a[0] <= b[2] && b[0] <= a[2] && a[1] <= b[3] && b[1] <= a[3]
}

/** A tile set's attribution (its datasets with their source and date); none when it holds no data. */
const attributionOf = (tj: TileJson | undefined) => (tj && tj.data_date !== null ? [tj.attribution] : [])

/** What the server holds, from the TileJSONs the map has read. */
export function serverData(sets: TileSets): ServerData {
  return {
    bounds: importedBounds(sets),
    wards: sets.parcels?.coverage ?? [],
    datasets: [...new Set([...attributionOf(sets.parcels), ...attributionOf(sets.planning)])],
  }
}
