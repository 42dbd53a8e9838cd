import proj4 from 'proj4'
import { formatCrs, parseCrs, projString } from '../import/crs.ts'
import type { Crs } from '../import/types.ts'
import { ImportError } from '../import/errors.ts'
import { fitAffine, MAX_GCP_RESIDUAL_M, type ControlPoint, type GeoTransform } from './gcp.ts'

/**
 * The CRS a scan's coordinates are in, as GDAL takes it, and as it is shown to people: WGS84, a VN-2000
 * grid, an EPSG code, or the WKT a file gives (`file`) for any other system GDAL knows.
 */
export type OverlayCrs = { kind: 'wgs84' | 'vn2000' | 'epsg' | 'file'; srs: string; label: string }

/** A CRS the importer recognises (a VN-2000 grid with its scale and datum shift, or WGS84) as GDAL takes it. */
export function overlayCrsOf(crs: Crs): OverlayCrs {
  if (crs.kind === 'wgs84') return { kind: 'wgs84', srs: 'EPSG:4326', label: 'EPSG:4326' }
  return { kind: 'vn2000', srs: projString(crs), label: formatCrs(crs) }
}

/** `EPSG:4326`, `vn2000:107.75` (or 107°45′) or any other `EPSG:<code>` GDAL knows (e.g. EPSG:3405). */
export function parseOverlayCrs(text: string): OverlayCrs | null {
  const known = parseCrs(text)
  if (known) return overlayCrsOf(known)
  const epsg = /^epsg:(\d{4,6})$/i.exec(text.trim())
  return epsg ? { kind: 'epsg', srs: `EPSG:${epsg[1]}`, label: `EPSG:${epsg[1]}` } : null
}

/** A control point as typed: `pixel,line,X,Y`. */
export type TypedGcp = { pixel: number; line: number; a: number; b: number }

export function parseGcp(text: string): TypedGcp | null {
  const parts = text.split(',').map((s) => s.trim())
  if (parts.length !== 4 || parts.some((p) => !/^-?\d+(\.\d+)?$/.test(p))) return null
  const [pixel, line, a, b] = parts.map(Number) as [number, number, number, number]
  if (pixel < 0 || line < 0) return null
  return { pixel, line, a, b }
}

export type GcpGeoref = {
  srs: string
  label: string
  points: ControlPoint[]
  transform: GeoTransform
  residuals: number[]
  /** Notes for the person importing (e.g. a pair of coordinates read in the other order). */
  notes: string[]
}

const isDegrees = (g: TypedGcp) => Math.abs(g.a) <= 180 && Math.abs(g.b) <= 180

/**
 * Turns typed control points into points in a metric CRS and fits the sheet. VN-2000 points are
 * written the Vietnamese way, X (northing) then Y (easting); WGS84 points may be lat,lng or lng,lat
 * (in Việt Nam the longitude is always the larger number) and are fitted on a transverse Mercator
 * centred on the sheet, so residuals are in metres.
 */
export function georefFromGcps(typed: TypedGcp[], crs: OverlayCrs | undefined): GcpGeoref {
  if (typed.length < 3) throw new ImportError(`Cần ít nhất 3 điểm khống chế (--gcp), mới có ${typed.length}`)
  const notes: string[] = []
  let srs: string
  let label: string
  let points: ControlPoint[]
  const degrees = typed.every(isDegrees)
  if (crs?.kind === 'wgs84' || (!crs && degrees)) {
    if (!degrees)
      throw new ImportError(
        'Điểm khống chế có tọa độ không phải độ WGS84; với VN-2000 hãy ghi --crs vn2000:<kinh tuyến trục>',
      )
    const lngLat = typed.map((g) => (Math.abs(g.a) > Math.abs(g.b) ? [g.a, g.b] : [g.b, g.a]) as [number, number])
    const lng0 = lngLat.reduce((s, p) => s + p[0], 0) / lngLat.length
    srs = `+proj=tmerc +lat_0=0 +lon_0=${lng0.toFixed(6)} +k=1 +x_0=500000 +y_0=0 +datum=WGS84 +units=m +no_defs`
    label = 'EPSG:4326'
    const project = proj4('EPSG:4326', srs)
    points = typed.map((g, i) => {
      const [x, y] = project.forward(lngLat[i]!)
      return { pixel: g.pixel, line: g.line, x, y }
    })
  } else if (crs?.kind === 'vn2000') {
    srs = crs.srs
    label = crs.label
    points = typed.map((g, i) => {
      // X is the northing; in Việt Nam it is always the larger of the two (over 950 000 m, eastings stay under 900 000 m).
      const swapped = g.a < g.b
      if (swapped) notes.push(`Điểm ${i + 1}: X < Y, đã hiểu là Y (hướng đông), X (hướng bắc)`)
      const [north, east] = swapped ? [g.b, g.a] : [g.a, g.b]
      return { pixel: g.pixel, line: g.line, x: east, y: north }
    })
  } else if (crs) {
    srs = crs.srs
    label = crs.label
    points = typed.map((g) => ({ pixel: g.pixel, line: g.line, x: g.a, y: g.b }))
  } else {
    throw new ImportError('Điểm khống chế VN-2000 cần --crs vn2000:<kinh tuyến trục> (ví dụ vn2000:107.75)')
  }
  const fit = fitAffine(points)
  if (!fit) throw new ImportError('Các điểm khống chế thẳng hàng hoặc trùng nhau; chọn điểm ở các góc tờ bản đồ')
  return { srs, label, points, transform: fit.transform, residuals: fit.residuals, notes }
}

/** Refuses a fit with a residual over MAX_GCP_RESIDUAL_M, naming the worst point. */
export function checkResiduals(residuals: number[]): void {
  const worst = residuals.reduce((w, r, i) => (r > residuals[w]! ? i : w), 0)
  if (residuals[worst]! > MAX_GCP_RESIDUAL_M) {
    throw new ImportError(
      `Điểm khống chế ${worst + 1} lệch ${residuals[worst]!.toFixed(2)} m (tối đa ${MAX_GCP_RESIDUAL_M} m); kiểm tra tọa độ hoặc vị trí điểm đó`,
    )
  }
}
