/** Web Mercator (EPSG:3857) tile arithmetic for 256-pixel XYZ tiles. */
export const TILE_PX = 256
/** Half the width of the Web Mercator world, in metres. */
export const HALF_WORLD = 20037508.342789244
export const WORLD = 2 * HALF_WORLD

/** Metres (Web Mercator units) per pixel at zoom z. */
export function resolutionAt(z: number): number {
  return WORLD / (TILE_PX * 2 ** z)
}

export type Box = { minX: number; minY: number; maxX: number; maxY: number }

/** Web Mercator bounds of tile z/x/y (y counted down from the north edge). */
export function tileBox(z: number, x: number, y: number): Box {
  const size = WORLD / 2 ** z
  return {
    minX: -HALF_WORLD + x * size,
    maxX: -HALF_WORLD + (x + 1) * size,
    maxY: HALF_WORLD - y * size,
    minY: HALF_WORLD - (y + 1) * size,
  }
}

/** Tiles at zoom z that a Web Mercator box touches (inclusive ranges). */
export function tileRange(box: Box, z: number): { x0: number; x1: number; y0: number; y1: number } {
  const size = WORLD / 2 ** z
  const last = 2 ** z - 1
  const clamp = (v: number) => Math.min(last, Math.max(0, v))
  // A box edge exactly on a tile edge does not reach into the next tile.
  return {
    x0: clamp(Math.floor((box.minX + HALF_WORLD) / size)),
    x1: clamp(Math.ceil((box.maxX + HALF_WORLD) / size) - 1),
    y0: clamp(Math.floor((HALF_WORLD - box.maxY) / size)),
    y1: clamp(Math.ceil((HALF_WORLD - box.minY) / size) - 1),
  }
}

/** WGS84 → Web Mercator metres. */
export function toMercator(lng: number, lat: number): [number, number] {
  const x = (lng * HALF_WORLD) / 180
  const y = Math.log(Math.tan(((90 + lat) * Math.PI) / 360)) * (HALF_WORLD / Math.PI)
  return [x, y]
}

/** Web Mercator metres → WGS84. */
export function fromMercator(x: number, y: number): [number, number] {
  return [(x / HALF_WORLD) * 180, (Math.atan(Math.exp((y / HALF_WORLD) * Math.PI)) * 360) / Math.PI - 90]
}
