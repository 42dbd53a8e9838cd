import { tileX, tileY } from '#core/offline/tile-grid.ts'
import { BUFFER, EXTENT, toMvtFeature, type MvtFeature } from './mvt.ts'

/**
 * Feature geometry from the database to tile coordinates, in Node: each row is read once (WKB to
 * degrees), projected and simplified once per zoom, then cut into every tile it reaches. The database
 * only selects rows (by the GiST index) and sends their WKB; the rest costs a few microseconds per
 * feature here, where PostGIS spent tens per feature and tile (ST_Transform, GEOS clipping, GeoJSON).
 *
 * Projected coordinates are "world units" of one zoom: Web Mercator with the origin at the north-west
 * corner of the world, y down, EXTENT units per tile, so tile (x, y) spans [x·EXTENT, (x+1)·EXTENT).
 */

type Tags = Record<string, string | number | boolean>

/**
 * Flat [x0, y0, x1, y1, …]. In degrees (longitude, latitude) rings are closed as in WKB; in world
 * units they are open (no closing point).
 */
export type FlatGeometry =
  { type: 1; points: number[] } | { type: 2; lines: number[][] } | { type: 3; polygons: number[][][] }

/** minX, minY, maxX, maxY. */
export type Bounds = [number, number, number, number]

/** One row of a layer, in degrees: the same for every zoom. */
export type SourceFeature = {
  id: number
  tags: Tags
  geometry: FlatGeometry
  bbox: Bounds
  /** For a polygon in a labelled layer: its interior point (longitude, latitude), and the tags of the piece holding it and of every other. */
  label?: { at: [number, number]; here: Tags; elsewhere: Tags }
}

/** A feature in world units of one zoom, ready to be cut into any tile of that zoom. */
export type WorldFeature = {
  id: number
  tags: Tags
  geometry: FlatGeometry
  bbox: Bounds
  /** The tile holding the label point, and the tags of the piece there and of every other, for labelled layers. */
  label?: { x: number; y: number; here: Tags; elsewhere: Tags }
}

/** One pixel of a 512-px tile: what simplification may move a line by, as ST_Simplify did with w / 512 metres. */
export const SIMPLIFY_TOLERANCE = EXTENT / 512

/** World units of one zoom for a longitude and latitude (Web Mercator, latitude clamped as the grid does). */
export function worldX(lng: number, z: number): number {
  return tileX(lng, z) * EXTENT
}
export function worldY(lat: number, z: number): number {
  return tileY(lat, z) * EXTENT
}

const WKB_POINT = 1
const WKB_LINESTRING = 2
const WKB_POLYGON = 3
const WKB_MULTIPOINT = 4
const WKB_MULTILINESTRING = 5
const WKB_MULTIPOLYGON = 6
const WKB_COLLECTION = 7

/** Reads (E)WKB as PostGIS writes it (the hex text of a geometry column) into flat lists of coordinates. */
class WkbReader {
  readonly #view: DataView
  #at = 0
  #le = true
  #dims = 2
  readonly points: number[] = []
  readonly lines: number[][] = []
  readonly polygons: number[][][] = []

  constructor(bytes: Uint8Array) {
    this.#view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength)
  }

  #u32(): number {
    const v = this.#view.getUint32(this.#at, this.#le)
    this.#at += 4
    return v
  }

  /** `n` points appended to `out`; an empty point (NaN) is skipped. */
  #coords(n: number, out: number[]): void {
    const step = 8 * this.#dims
    for (let i = 0; i < n; i++, this.#at += step) {
      const lng = this.#view.getFloat64(this.#at, this.#le)
      const lat = this.#view.getFloat64(this.#at + 8, this.#le)
      if (!Number.isNaN(lng) && !Number.isNaN(lat)) out.push(lng, lat)
    }
  }

  #ring(): number[] {
    const ring: number[] = []
    this.#coords(this.#u32(), ring)
    return ring
  }

  /** One geometry and everything in it: points, lines and polygons sorted into their lists. */
  read(): void {
    this.#le = this.#view.getUint8(this.#at) === 1
    this.#at += 1
    let type = this.#u32()
    // EWKB flags (PostGIS) or ISO type numbers (1000s Z, 2000s M, 3000s ZM); only x and y are kept.
    let hasZ = (type & 0x80000000) !== 0
    let hasM = (type & 0x40000000) !== 0
    if (type & 0x20000000) this.#at += 4
    type &= 0x0fffffff
    if (type >= 1000) {
      const iso = Math.floor(type / 1000)
      hasZ ||= iso === 1 || iso === 3
      hasM ||= iso === 2 || iso === 3
      type %= 1000
    }
    this.#dims = 2 + (hasZ ? 1 : 0) + (hasM ? 1 : 0)
    switch (type) {
      case WKB_POINT:
        return this.#coords(1, this.points)
      case WKB_LINESTRING:
        return void this.lines.push(this.#ring())
      case WKB_POLYGON: {
        const n = this.#u32()
        const rings: number[][] = []
        for (let i = 0; i < n; i++) rings.push(this.#ring())
        if (rings.length > 0) this.polygons.push(rings)
        return
      }
      case WKB_MULTIPOINT:
      case WKB_MULTILINESTRING:
      case WKB_MULTIPOLYGON:
      case WKB_COLLECTION: {
        const n = this.#u32()
        for (let i = 0; i < n; i++) this.read()
        return
      }
      default:
        throw new Error(`WKB geometry type ${type} is not supported`)
    }
  }
}

/** Squared distance from (px, py) to the segment a–b (to a itself when a and b coincide). */
function sqSegmentDistance(px: number, py: number, ax: number, ay: number, bx: number, by: number): number {
  let dx = bx - ax
  let dy = by - ay
  let x = ax
  let y = ay
  if (dx !== 0 || dy !== 0) {
    const t = ((px - ax) * dx + (py - ay) * dy) / (dx * dx + dy * dy)
    if (t > 1) {
      x = bx
      y = by
    } else if (t > 0) {
      x += dx * t
      y += dy * t
    }
  }
  dx = px - x
  dy = py - y
  return dx * dx + dy * dy
}

// Marks of the points simplify keeps, reused by every call (it is synchronous): most rings are a few points.
let keep = new Uint8Array(256)
const stack: number[] = []

/**
 * Douglas–Peucker, as ST_Simplify: the ends stay, a point is kept when it lies farther than `tolerance`
 * from the kept line. Reads the first `n` points of `pts`; the points kept come in a new array.
 */
export function simplify(pts: ArrayLike<number>, tolerance: number, n = pts.length / 2): number[] {
  if (n <= 2) return Array.from({ length: 2 * n }, (_, i) => pts[i]!)
  const sqTolerance = tolerance * tolerance
  if (keep.length < n) keep = new Uint8Array(2 * n)
  keep.fill(0, 0, n)
  keep[0] = 1
  keep[n - 1] = 1
  stack.push(0, n - 1)
  while (stack.length > 0) {
    const last = stack.pop()!
    const first = stack.pop()!
    let farthest = sqTolerance
    let index = -1
    for (let i = first + 1; i < last; i++) {
      const d = sqSegmentDistance(
        pts[2 * i]!,
        pts[2 * i + 1]!,
        pts[2 * first]!,
        pts[2 * first + 1]!,
        pts[2 * last]!,
        pts[2 * last + 1]!,
      )
      if (d > farthest) {
        farthest = d
        index = i
      }
    }
    if (index >= 0) {
      keep[index] = 1
      stack.push(first, index, index, last)
    }
  }
  let kept = 0
  for (let i = 0; i < n; i++) kept += keep[i]!
  // Sized once: pushing grew the array two or three times for a parcel's handful of points.
  const out = new Array<number>(2 * kept)
  for (let i = 0, k = 0; i < n; i++) {
    if (!keep[i]) continue
    out[k++] = pts[2 * i]!
    out[k++] = pts[2 * i + 1]!
  }
  return out
}

// A ring or line projected to the zoom before simplifying, reused by every call (it is synchronous):
// only the points simplify keeps are allocated.
let projected = new Float64Array(1024)

/** Degrees to world units of zoom z, then simplified by one pixel. */
function projectSimplify(pts: number[], z: number): number[] {
  if (projected.length < pts.length) projected = new Float64Array(2 * pts.length)
  for (let i = 0; i < pts.length; i += 2) {
    projected[i] = worldX(pts[i]!, z)
    projected[i + 1] = worldY(pts[i + 1]!, z)
  }
  return simplify(projected, SIMPLIFY_TOLERANCE, pts.length / 2)
}

/**
 * A closed ring projected, simplified and opened (its closing point dropped), or null when it
 * collapsed below three points: ST_Simplify drops such rings, and a polygon whose shell collapsed.
 */
function simplifyRing(ring: number[], z: number): number[] | null {
  const out = projectSimplify(ring, z)
  if (out.length < 8) return null
  out.length -= 2
  return out
}

function bboxOf(geometry: FlatGeometry): Bounds {
  let minX = Infinity
  let minY = Infinity
  let maxX = -Infinity
  let maxY = -Infinity
  const add = (pts: number[]) => {
    for (let i = 0; i < pts.length; i += 2) {
      const x = pts[i]!
      const y = pts[i + 1]!
      if (x < minX) minX = x
      if (x > maxX) maxX = x
      if (y < minY) minY = y
      if (y > maxY) maxY = y
    }
  }
  if (geometry.type === 1) add(geometry.points)
  else if (geometry.type === 2) geometry.lines.forEach(add)
  else for (const polygon of geometry.polygons) add(polygon[0]!)
  return [minX, minY, maxX, maxY]
}

/**
 * A row's geometry from hex (E)WKB, in degrees. A collection keeps its parts of the highest dimension
 * (ST_CollectionExtract's rule). Null when it holds nothing.
 */
export function readGeometry(hexWkb: string): FlatGeometry | null {
  const r = new WkbReader(Buffer.from(hexWkb, 'hex'))
  r.read()
  if (r.polygons.length > 0) return { type: 3, polygons: r.polygons }
  if (r.lines.length > 0) return { type: 2, lines: r.lines }
  return r.points.length > 0 ? { type: 1, points: r.points } : null
}

/**
 * A point inside a polygon, by GEOS's scan-line method (as ST_PointOnSurface): a horizontal line
 * through the middle of the polygon's height, nudged off every vertex, crosses its edges in pairs;
 * the middle of the widest stretch inside is the point. Over a multipolygon the widest stretch of
 * all. Null when no stretch has width (a polygon collapsed to a line).
 */
export function interiorPoint(polygons: readonly number[][][]): [number, number] | null {
  let best: [number, number] | null = null
  let widest = 0
  const xs: number[] = []
  for (const rings of polygons) {
    const shell = rings[0]!
    let minY = Infinity
    let maxY = -Infinity
    for (let i = 1; i < shell.length; i += 2) {
      minY = Math.min(minY, shell[i]!)
      maxY = Math.max(maxY, shell[i]!)
    }
    const centre = (minY + maxY) / 2
    let lo = minY
    let hi = maxY
    for (const ring of rings) {
      for (let i = 1; i < ring.length; i += 2) {
        const y = ring[i]!
        if (y <= centre) lo = Math.max(lo, y)
        else hi = Math.min(hi, y)
      }
    }
    const scan = (lo + hi) / 2
    xs.length = 0
    for (const ring of rings) {
      for (let i = 2; i < ring.length; i += 2) {
        const x0 = ring[i - 2]!
        const y0 = ring[i - 1]!
        const x1 = ring[i]!
        const y1 = ring[i + 1]!
        if (y0 > scan !== y1 > scan) xs.push(x0 + ((scan - y0) * (x1 - x0)) / (y1 - y0))
      }
    }
    // Most rings are crossed twice; a sort with a comparator is the costly part of a small polygon's point.
    if (xs.length === 2) {
      if (xs[0]! > xs[1]!) xs.reverse()
    } else xs.sort((a, b) => a - b)
    for (let i = 0; i + 1 < xs.length; i += 2) {
      const width = xs[i + 1]! - xs[i]!
      if (width > widest) {
        widest = width
        best = [(xs[i]! + xs[i + 1]!) / 2, scan]
      }
    }
  }
  return best
}

/** A row as a feature in degrees; `labelled` gives a polygon its interior point (the layer marks labels). */
export function sourceFeature(id: number, tags: Tags, geometry: FlatGeometry, labelled: boolean): SourceFeature {
  const f: SourceFeature = { id, tags, geometry, bbox: bboxOf(geometry) }
  const at = labelled && geometry.type === 3 ? interiorPoint(geometry.polygons) : null
  if (at) f.label = { at, here: { ...tags, label: true }, elsewhere: { ...tags, label: false } }
  return f
}

/** Coordinates to keep for the feature: 8 bytes each, and what its objects take besides, roughly. */
export function featureBytes(f: SourceFeature): number {
  const g = f.geometry
  const coords =
    g.type === 1
      ? g.points.length
      : g.type === 2
        ? g.lines.reduce((n, l) => n + l.length, 0)
        : g.polygons.reduce((n, p) => n + p.reduce((m, r) => m + r.length, 0), 0)
  return 8 * coords + 256
}

/**
 * The feature in world units of zoom z, simplified by one pixel (lines and polygons): the same for
 * every tile of the zoom, so neighbouring tiles meet. Null when simplifying left nothing drawable.
 */
export function worldFeature(f: SourceFeature, z: number): WorldFeature | null {
  const g = f.geometry
  let geometry: FlatGeometry | null
  if (g.type === 3) {
    const polygons: number[][][] = []
    for (const rings of g.polygons) {
      const shell = simplifyRing(rings[0]!, z)
      if (!shell) continue
      const polygon = [shell]
      for (let i = 1; i < rings.length; i++) {
        const hole = simplifyRing(rings[i]!, z)
        if (hole) polygon.push(hole)
      }
      polygons.push(polygon)
    }
    geometry = polygons.length > 0 ? { type: 3, polygons } : null
  } else if (g.type === 2) {
    const lines = g.lines.filter((l) => l.length >= 4).map((l) => projectSimplify(l, z))
    geometry = lines.length > 0 ? { type: 2, lines } : null
  } else {
    const points: number[] = []
    for (let i = 0; i < g.points.length; i += 2) points.push(worldX(g.points[i]!, z), worldY(g.points[i + 1]!, z))
    geometry = { type: 1, points }
  }
  if (!geometry) return null
  const w: WorldFeature = { id: f.id, tags: f.tags, geometry, bbox: bboxOf(geometry) }
  if (f.label)
    w.label = {
      x: Math.floor(worldX(f.label.at[0], z) / EXTENT),
      y: Math.floor(worldY(f.label.at[1], z) / EXTENT),
      here: f.label.here,
      elsewhere: f.label.elsewhere,
    }
  return w
}

/** Sutherland–Hodgman against one side of the box: keeps the part of an open ring with pts[axis] ≥ bound (or ≤ when !above). */
function clipRingSide(pts: number[], axis: 0 | 1, bound: number, above: boolean): number[] {
  const out: number[] = []
  const n = pts.length / 2
  const other = 1 - axis
  let px = pts[2 * n - 2]!
  let py = pts[2 * n - 1]!
  let pIn = above ? (axis === 0 ? px : py) >= bound : (axis === 0 ? px : py) <= bound
  for (let i = 0; i < n; i++) {
    const cx = pts[2 * i]!
    const cy = pts[2 * i + 1]!
    const c = axis === 0 ? cx : cy
    const cIn = above ? c >= bound : c <= bound
    if (cIn !== pIn) {
      const p = axis === 0 ? px : py
      const t = (bound - p) / (c - p)
      const po = other === 0 ? px : py
      const co = other === 0 ? cx : cy
      const o = po + t * (co - po)
      if (axis === 0) out.push(bound, o)
      else out.push(o, bound)
    }
    if (cIn) out.push(cx, cy)
    px = cx
    py = cy
    pIn = cIn
  }
  return out
}

/**
 * The part of an open ring inside the box, or null when less than a triangle is left. Edges that ran
 * outside come back along the box's border: the piece stays one ring, and those edges lie in the
 * buffer, outside what the tile shows.
 */
export function clipRing(ring: number[], x0: number, y0: number, x1: number, y1: number): number[] | null {
  let out = clipRingSide(ring, 0, x0, true)
  if (out.length >= 6) out = clipRingSide(out, 0, x1, false)
  if (out.length >= 6) out = clipRingSide(out, 1, y0, true)
  if (out.length >= 6) out = clipRingSide(out, 1, y1, false)
  return out.length >= 6 ? out : null
}

/** One side of the box for lines: the pieces with pts[axis] ≥ bound (or ≤), a line leaving and coming back split in two. */
function clipLinesSide(lines: number[][], axis: 0 | 1, bound: number, above: boolean): number[][] {
  const out: number[][] = []
  const other = 1 - axis
  for (const pts of lines) {
    let piece: number[] = []
    let px = 0
    let py = 0
    let pIn = false
    for (let i = 0; i < pts.length; i += 2) {
      const cx = pts[i]!
      const cy = pts[i + 1]!
      const c = axis === 0 ? cx : cy
      const cIn = above ? c >= bound : c <= bound
      if (i > 0 && cIn !== pIn) {
        const p = axis === 0 ? px : py
        const t = (bound - p) / (c - p)
        const po = other === 0 ? px : py
        const o = po + t * ((other === 0 ? cx : cy) - po)
        if (axis === 0) piece.push(bound, o)
        else piece.push(o, bound)
        if (!cIn) {
          if (piece.length >= 4) out.push(piece)
          piece = []
        }
      }
      if (cIn) piece.push(cx, cy)
      px = cx
      py = cy
      pIn = cIn
    }
    if (piece.length >= 4) out.push(piece)
  }
  return out
}

export function clipLines(lines: number[][], x0: number, y0: number, x1: number, y1: number): number[][] {
  let out = clipLinesSide(lines, 0, x0, true)
  out = clipLinesSide(out, 0, x1, false)
  out = clipLinesSide(out, 1, y0, true)
  return clipLinesSide(out, 1, y1, false)
}

/** Flat world coordinates → tile coordinates snapped to the integer grid (as ST_SnapToGrid(…, 1) did). */
function toTile(pts: number[], ox: number, oy: number): [number, number][] {
  const out: [number, number][] = []
  for (let i = 0; i < pts.length; i += 2) out.push([Math.round(pts[i]! - ox), Math.round(pts[i + 1]! - oy)])
  return out
}

/**
 * The feature's piece in tile (x, y) as an MVT feature, or null when none of it falls there. Lines and
 * polygons are clipped to the tile plus its BUFFER, points to the tile itself (half-open, so a point on
 * the edge between two tiles lands in one only).
 */
export function tileFeature(f: WorldFeature, x: number, y: number): MvtFeature | null {
  const ox = x * EXTENT
  const oy = y * EXTENT
  const g = f.geometry
  const [minX, minY, maxX, maxY] = f.bbox
  const tags = f.label ? (f.label.x === x && f.label.y === y ? f.label.here : f.label.elsewhere) : f.tags
  if (g.type === 1) {
    const inside: number[] = []
    for (let i = 0; i < g.points.length; i += 2) {
      const px = g.points[i]!
      const py = g.points[i + 1]!
      if (px >= ox && px < ox + EXTENT && py >= oy && py < oy + EXTENT) inside.push(px, py)
    }
    return inside.length > 0
      ? toMvtFeature({ type: 'MultiPoint', coordinates: toTile(inside, ox, oy) }, tags, f.id)
      : null
  }
  const x0 = ox - BUFFER
  const y0 = oy - BUFFER
  const x1 = ox + EXTENT + BUFFER
  const y1 = oy + EXTENT + BUFFER
  if (maxX < x0 || minX > x1 || maxY < y0 || minY > y1) return null
  const within = minX >= x0 && maxX <= x1 && minY >= y0 && maxY <= y1
  if (g.type === 2) {
    const lines = within ? g.lines : clipLines(g.lines, x0, y0, x1, y1)
    return lines.length > 0
      ? toMvtFeature({ type: 'MultiLineString', coordinates: lines.map((l) => toTile(l, ox, oy)) }, tags, f.id)
      : null
  }
  const polygons: [number, number][][][] = []
  for (const rings of g.polygons) {
    const shell = within ? rings[0]! : clipRing(rings[0]!, x0, y0, x1, y1)
    if (!shell) continue
    const polygon = [toTile(shell, ox, oy)]
    for (let i = 1; i < rings.length; i++) {
      const hole = within ? rings[i]! : clipRing(rings[i]!, x0, y0, x1, y1)
      if (hole) polygon.push(toTile(hole, ox, oy))
    }
    polygons.push(polygon)
  }
  return polygons.length > 0 ? toMvtFeature({ type: 'MultiPolygon', coordinates: polygons }, tags, f.id) : null
}
