import type { Geometry, Position } from 'geojson'
import { MAX_FEATURE_VERTICES } from '#core/limits.ts'
import type { Projector } from './crs.ts'
import { RowError } from './errors.ts'
import type { Crs } from './types.ts'

/**
 * Viet Nam with its islands (Hoàng Sa, Trường Sa) in WGS84, with a margin. Wide on purpose: it is
 * there to catch swapped coordinates, a forgotten --crs or a wrong meridian, not to draw borders.
 */
export const vietnamExtent = { minLng: 102, maxLng: 118, minLat: 4, maxLat: 24 } as const

export type GeometryClass = 'polygon' | 'line' | 'point'

const classOf: Record<string, GeometryClass | undefined> = {
  Polygon: 'polygon',
  MultiPolygon: 'polygon',
  LineString: 'line',
  MultiLineString: 'line',
  Point: 'point',
  MultiPoint: 'point',
}

const classNames: Record<GeometryClass, string> = {
  polygon: 'vùng (Polygon)',
  line: 'đường (LineString)',
  point: 'điểm (Point)',
}

/**
 * Checks a feature's geometry, reprojects it to WGS84 and checks it lies in Viet Nam. Throws RowError
 * with the reason when the row must be rejected. Self-intersections are left for ST_MakeValid in SQL.
 */
export function prepareGeometry(
  geometry: Geometry | null,
  accept: GeometryClass[],
  project: Projector,
  crs: Crs,
): { geometry: Geometry; cls: GeometryClass } {
  if (!geometry || typeof geometry !== 'object') throw new RowError('hình học rỗng')
  const cls = classOf[geometry.type]
  if (!cls || !accept.includes(cls)) {
    throw new RowError(
      `kiểu hình học ${String(geometry.type)} không dùng được, cần ${accept.map((c) => classNames[c]).join(' hoặc ')}`,
    )
  }
  const coords = (geometry as { coordinates?: unknown }).coordinates
  if (!Array.isArray(coords) || coords.length === 0) throw new RowError('hình học rỗng')
  const vertices = vertexCount(coords)
  if (vertices > MAX_FEATURE_VERTICES) {
    const vi = (n: number) => n.toLocaleString('vi-VN')
    throw new RowError(
      `hình học có ${vi(vertices)} đỉnh, quá ${vi(MAX_FEATURE_VERTICES)} đỉnh cho một đối tượng — hãy đơn giản hoá nó (ví dụ ogr2ogr -simplify 0.1) rồi nhập lại`,
    )
  }

  const pos = (p: unknown): Position => {
    if (!Array.isArray(p) || p.length < 2) throw new RowError('tọa độ không đúng dạng [x, y]')
    const x = p[0]
    const y = p[1]
    if (typeof x !== 'number' || typeof y !== 'number' || !Number.isFinite(x) || !Number.isFinite(y)) {
      throw new RowError('tọa độ không phải số')
    }
    const [lng, lat] = project(x, y)
    if (!(
      lng >= vietnamExtent.minLng &&
      lng <= vietnamExtent.maxLng &&
      lat >= vietnamExtent.minLat &&
      lat <= vietnamExtent.maxLat
    )) {
      const hint =
        crs.kind === 'wgs84' && (Math.abs(x) > 180 || Math.abs(y) > 90)
          ? ' — có vẻ là tọa độ phẳng VN-2000, hãy dùng --crs vn2000:<kinh tuyến trục>'
          : crs.kind === 'wgs84' &&
              x >= vietnamExtent.minLat &&
              x <= vietnamExtent.maxLat &&
              y >= vietnamExtent.minLng &&
              y <= vietnamExtent.maxLng
            ? ' — có vẻ kinh độ và vĩ độ bị đảo chỗ'
            : ''
      throw new RowError(`tọa độ (${x}, ${y}) nằm ngoài phạm vi Việt Nam${hint}`)
    }
    return [lng, lat]
  }
  const line = (l: unknown, min: number): Position[] => {
    if (!Array.isArray(l)) throw new RowError('tọa độ không đúng dạng')
    if (l.length < min) throw new RowError(min === 2 ? 'đường có ít hơn 2 điểm' : 'vòng đa giác có ít hơn 4 điểm')
    return l.map(pos)
  }
  const ring = (r: unknown): Position[] => {
    const out = line(r, 4)
    const first = out[0]!
    const last = out[out.length - 1]!
    // Compared after reprojection too: the same input point always reprojects to the same output.
    if (first[0] !== last[0] || first[1] !== last[1]) throw new RowError('vòng đa giác không khép kín')
    return out
  }
  const polygon = (p: unknown): Position[][] => {
    if (!Array.isArray(p) || p.length === 0) throw new RowError('hình học rỗng')
    return p.map(ring)
  }
  const list = (v: unknown): unknown[] => {
    if (!Array.isArray(v) || v.length === 0) throw new RowError('hình học rỗng')
    return v
  }

  switch (geometry.type) {
    case 'Point':
      return { geometry: { type: 'Point', coordinates: pos(coords) }, cls }
    case 'MultiPoint': {
      const points = list(coords).map(pos)
      // A comparable is one place; a MultiPoint of one point is how some tools write it.
      if (points.length !== 1) throw new RowError('MultiPoint có nhiều hơn một điểm')
      return { geometry: { type: 'Point', coordinates: points[0]! }, cls }
    }
    case 'LineString':
      return { geometry: { type: 'LineString', coordinates: line(coords, 2) }, cls }
    case 'MultiLineString':
      return { geometry: { type: 'MultiLineString', coordinates: list(coords).map((l) => line(l, 2)) }, cls }
    case 'Polygon':
      return { geometry: { type: 'Polygon', coordinates: polygon(coords) }, cls }
    case 'MultiPolygon':
      return { geometry: { type: 'MultiPolygon', coordinates: list(coords).map(polygon) }, cls }
    default:
      throw new RowError(`kiểu hình học ${String(geometry.type)} không dùng được`)
  }
}

/** Vertices in nested coordinate arrays, counted before any is read or reprojected. */
function vertexCount(coords: unknown[]): number {
  if (typeof coords[0] === 'number') return 1
  let n = 0
  for (const c of coords) if (Array.isArray(c)) n += vertexCount(c)
  return n
}

const ring = (r: Position[]) => `(${r.map((p) => `${p[0]} ${p[1]}`).join(',')})`

/**
 * WKT of a prepared geometry. PostGIS parses WKT faster than GeoJSON (docs/performance.md, "Import"), and JS
 * number formatting is the shortest text that reads back to the same double, so nothing is lost.
 */
export function toWkt(g: Geometry): string {
  switch (g.type) {
    case 'Point':
      return `POINT(${g.coordinates[0]} ${g.coordinates[1]})`
    case 'LineString':
      return `LINESTRING${ring(g.coordinates)}`
    case 'MultiLineString':
      return `MULTILINESTRING(${g.coordinates.map(ring).join(',')})`
    case 'Polygon':
      return `POLYGON(${g.coordinates.map(ring).join(',')})`
    case 'MultiPolygon':
      return `MULTIPOLYGON(${g.coordinates.map((p) => `(${p.map(ring).join(',')})`).join(',')})`
    default:
      throw new Error(`no WKT for ${g.type}`)
  }
}
