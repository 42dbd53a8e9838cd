/** Web-Mercator tile numbers (XYZ, y down) for WGS84 degrees. */
export function tileOf(lng: number, lat: number, z: number): [number, number] {
  const n = 2 ** z
  const r = (lat * Math.PI) / 180
  const x = Math.floor(((lng + 180) / 360) * n)
  const y = Math.floor(((1 - Math.log(Math.tan(r) + 1 / Math.cos(r)) / Math.PI) / 2) * n)
  return [Math.min(n - 1, Math.max(0, x)), Math.min(n - 1, Math.max(0, y))]
}

export type Bbox = { west: number; south: number; east: number; north: number }
export type TileRef = { layer: string; z: number; x: number; y: number }

/** Every tile of zoom z that a bounding box touches. */
export function tilesIn(box: Bbox, z: number): [number, number][] {
  const [x0, y0] = tileOf(box.west, box.north, z)
  const [x1, y1] = tileOf(box.east, box.south, z)
  const out: [number, number][] = []
  for (let y = y0; y <= y1; y++) for (let x = x0; x <= x1; x++) out.push([x, y])
  return out
}

/** A box of `widthM` × `heightM` metres centred on a point (spherical approximation, plenty for a few km). */
export function boxAround(lng: number, lat: number, widthM: number, heightM: number): Bbox {
  const dLat = heightM / 2 / 111_320
  const dLng = widthM / 2 / (111_320 * Math.cos((lat * Math.PI) / 180))
  return { west: lng - dLng, south: lat - dLat, east: lng + dLng, north: lat + dLat }
}

/** The tiles of each layer over a box at the zooms it is drawn at. */
export function tileList(box: Bbox, layers: { layer: string; minzoom: number; maxzoom: number }[]): TileRef[] {
  return layers.flatMap((l) => {
    const out: TileRef[] = []
    for (let z = l.minzoom; z <= l.maxzoom; z++)
      for (const [x, y] of tilesIn(box, z)) out.push({ layer: l.layer, z, x, y })
    return out
  })
}
