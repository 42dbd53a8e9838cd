import { fromGeojsonVt } from '@maplibre/vt-pbf'
import type { Geometry, Position } from 'geojson'

export const EXTENT = 4096
export const BUFFER = 64

type Point = [number, number]
type Tags = Record<string, string | number | boolean>

/** The geojson-vt tile feature shape that @maplibre/vt-pbf encodes. */
export type MvtFeature =
  | { type: 1; geometry: Point[]; tags: Tags; id?: number }
  | { type: 2 | 3; geometry: Point[][]; tags: Tags; id?: number }

export type MvtLayer = { name: string; features: MvtFeature[] }

const samePoint = (a: Point, b: Point) => a[0] === b[0] && a[1] === b[1]

/** Consecutive duplicates removed; quantising to the tile grid makes many. */
function dedupe(line: Position[]): Point[] {
  const out: Point[] = []
  for (const p of line) {
    const q: Point = [p[0] ?? 0, p[1] ?? 0]
    const last = out[out.length - 1]
    if (!last || !samePoint(last, q)) out.push(q)
  }
  return out
}

/** A ring without its closing point (MVT closes rings with ClosePath instead). */
export function openRing(ring: Position[]): Point[] {
  const out = dedupe(ring)
  while (out.length > 1 && samePoint(out[0]!, out[out.length - 1]!)) out.pop()
  return out
}

/**
 * Twice the signed area by the surveyor's formula in tile coordinates (y down). The MVT spec calls a
 * ring with positive area exterior; on screen it runs clockwise.
 */
export function ringArea2(ring: Point[]): number {
  let sum = 0
  for (let i = 0; i < ring.length; i++) {
    const a = ring[i]!
    const b = ring[(i + 1) % ring.length]!
    sum += a[0] * b[1] - b[0] * a[1]
  }
  return sum
}

function orient(ring: Point[], exterior: boolean): Point[] {
  const area = ringArea2(ring)
  return exterior === area > 0 ? ring : ring.slice().reverse()
}

function polygonRings(rings: Position[][]): Point[][] {
  const [outer, ...holes] = rings
  if (!outer) return []
  const shell = openRing(outer)
  if (shell.length < 3 || ringArea2(shell) === 0) return []
  const out = [orient(shell, true)]
  for (const hole of holes) {
    const h = openRing(hole)
    if (h.length >= 3 && ringArea2(h) !== 0) out.push(orient(h, false))
  }
  return out
}

function lines(parts: Position[][]): Point[][] {
  return parts.map(dedupe).filter((l) => l.length >= 2)
}

/**
 * GeoJSON already quantised to tile coordinates → one MVT feature, with rings wound as the spec says
 * and degenerate parts dropped; null when nothing drawable is left.
 */
export function toMvtFeature(geometry: Geometry, tags: Tags, id?: number): MvtFeature | null {
  const withId = id === undefined ? {} : { id }
  switch (geometry.type) {
    case 'Point':
    case 'MultiPoint': {
      const pts = geometry.type === 'Point' ? [geometry.coordinates] : geometry.coordinates
      const points = pts.map((p): Point => [p[0] ?? 0, p[1] ?? 0])
      return points.length > 0 ? { type: 1, geometry: points, tags, ...withId } : null
    }
    case 'LineString':
    case 'MultiLineString': {
      const parts = lines(geometry.type === 'LineString' ? [geometry.coordinates] : geometry.coordinates)
      return parts.length > 0 ? { type: 2, geometry: parts, tags, ...withId } : null
    }
    case 'Polygon':
    case 'MultiPolygon': {
      const polys = geometry.type === 'Polygon' ? [geometry.coordinates] : geometry.coordinates
      const rings = polys.flatMap(polygonRings)
      return rings.length > 0 ? { type: 3, geometry: rings, tags, ...withId } : null
    }
    default:
      return null
  }
}

/** The tile as protobuf bytes, or null when no layer has a feature (answered as 204). */
export function encodeTile(layers: MvtLayer[]): Uint8Array<ArrayBuffer> | null {
  const nonEmpty = layers.filter((l) => l.features.length > 0)
  if (nonEmpty.length === 0) return null
  const bytes = fromGeojsonVt(Object.fromEntries(nonEmpty.map((l) => [l.name, { features: l.features }])), { version: 2, extent: EXTENT })
  // The encoder answers with a view into its growing buffer; a tight copy is what caches should keep.
  return bytes.slice()
}
