import { autoMeridian } from '#core/geo/provinces.ts'
import { toVn2000 } from '#core/geo/vn2000.ts'
import { dxfLayerTable, dxfText, dxfWords, type DxfPair } from '../../lib/dxf.ts'
import { crsLabel } from '../sketch/index.ts'
import type { SavedMeasure } from './saved-measures.ts'

/**
 * The saved measurements as files. One VN-2000 meridian serves a whole file (a drawing has one coordinate
 * system): the default for the first measurement's place, its province's, as the coordinate readout picks.
 */
export function fileMeridian(list: readonly SavedMeasure[]): number {
  const [lng, lat] = list[0]?.points[0] ?? [105.75, 21]
  return autoMeridian(lat, lng).meridian
}

const f3 = (v: number) => v.toFixed(3)
const f7 = (v: number) => v.toFixed(7)
const csvCell = (s: string) => (/[",\r\n]/.test(s) ? `"${s.replace(/"/g, '""')}"` : s)
const KIND = { length: 'chiều dài', area: 'diện tích' } as const
const grid = (m: SavedMeasure, meridian: number) => m.points.map(([lng, lat]) => toVn2000(lat, lng, meridian))
/** A polygon's ring closes on its first point, in WKT and GeoJSON alike. */
const closed = <T>(m: SavedMeasure, pts: T[]) => (m.kind === 'area' && pts.length > 0 ? [...pts, pts[0]!] : pts)

function wkt(m: SavedMeasure, pts: [number, number][], fmt: (v: number) => string): string {
  const body = closed(m, pts)
    .map(([a, b]) => `${fmt(a)} ${fmt(b)}`)
    .join(', ')
  return m.kind === 'area' ? `POLYGON ((${body}))` : `LINESTRING (${body})`
}

/**
 * One row per measurement: name, kind, length (a polygon's perimeter), area, each side, the shape as WKT in
 * WGS84 (lon lat) and in VN-2000 (easting northing, as GIS programs read a projected WKT), the time saved;
 * point as decimal separator, UTF-8 with a BOM so a spreadsheet shows the Vietnamese.
 */
export function measuresCsv(list: readonly SavedMeasure[]): string {
  const meridian = fileMeridian(list)
  const crs = crsLabel(meridian)
  const head = [
    'Tên',
    'Loại',
    'Chiều dài / chu vi (m)',
    'Diện tích (m²)',
    'Các cạnh (m)',
    'WKT WGS84 (kinh độ vĩ độ)',
    `WKT ${crs} (Y X)`,
    'Thời điểm lưu',
  ]
  const rows = list.map((m) =>
    [
      m.name,
      KIND[m.kind],
      f3(m.lengthM),
      m.kind === 'area' ? f3(m.areaM2) : '',
      m.sides.map((s) => s.toFixed(2)).join(' '),
      wkt(m, m.points, f7),
      wkt(
        m,
        grid(m, meridian).map((g) => [g.y, g.x]),
        f3,
      ),
      new Date(m.at).toISOString(),
    ]
      .map(csvCell)
      .join(','),
  )
  return `\uFEFF${[head.join(','), ...rows].join('\r\n')}\r\n`
}

/** GeoJSON in WGS84 lon/lat (as the format requires), each shape's VN-2000 X/Y and figures in its properties. */
export function measuresGeoJson(list: readonly SavedMeasure[]): string {
  const meridian = fileMeridian(list)
  return JSON.stringify({
    type: 'FeatureCollection',
    features: list.map((m) => {
      const ring = closed(m, m.points)
      return {
        type: 'Feature',
        geometry:
          m.kind === 'area' ? { type: 'Polygon', coordinates: [ring] } : { type: 'LineString', coordinates: ring },
        properties: {
          name: m.name,
          kind: m.kind,
          length_m: m.lengthM,
          area_m2: m.kind === 'area' ? m.areaM2 : null,
          sides_m: m.sides,
          crs: crsLabel(meridian),
          vn2000_xy: grid(m, meridian).map((g) => [Number(f3(g.x)), Number(f3(g.y))]),
          saved_at: new Date(m.at).toISOString(),
        },
      }
    }),
  })
}

const LAYERS = [
  { name: 'DO_CHIEU_DAI', color: 1 },
  { name: 'DO_DIEN_TICH', color: 3 },
  { name: 'TEN_PHEP_DO', color: 7 },
  { name: 'GHI_CHU', color: 7 },
]

function shape(m: SavedMeasure, meridian: number): DxfPair[] {
  const pts = grid(m, meridian)
  const layer = m.kind === 'area' ? 'DO_DIEN_TICH' : 'DO_CHIEU_DAI'
  const es = pts.map((p) => p.y)
  const ns = pts.map((p) => p.x)
  const size = Math.max(Math.max(...es) - Math.min(...es), Math.max(...ns) - Math.min(...ns))
  const h = Math.max(0.3, size / 25)
  const label = `${m.name}: ${m.text}`
  return [
    [0, 'POLYLINE'],
    [8, layer],
    [66, 1],
    [70, m.kind === 'area' ? 1 : 0],
    [10, '0.0'],
    [20, '0.0'],
    [30, '0.0'],
    ...pts.flatMap((p): DxfPair[] => [
      [0, 'VERTEX'],
      [8, layer],
      [10, f3(p.y)],
      [20, f3(p.x)],
      [30, '0.0'],
    ]),
    [0, 'SEQEND'],
    [8, layer],
    ...dxfWords('TEN_PHEP_DO', (Math.min(...es) + Math.max(...es)) / 2, Math.max(...ns) + h * 1.5, h, label),
  ]
}

/**
 * The measurements as an ASCII DXF in R12's structure (which every CAD program opens): each a POLYLINE,
 * closed for an area (DO_DIEN_TICH) and open for a length (DO_CHIEU_DAI), its name and figure above it
 * (TEN_PHEP_DO) and the coordinate system in a note (GHI_CHU), words in Vietnamese through `\U+`
 * escapes. Metres in VN-2000 with CAD's axes: drawing X = easting (VN-2000 Y), Y = northing (VN-2000 X).
 */
export function measuresDxf(list: readonly SavedMeasure[]): string {
  const meridian = fileMeridian(list)
  const all = list.flatMap((m) => grid(m, meridian))
  const minE = Math.min(...all.map((p) => p.y))
  const minN = Math.min(...all.map((p) => p.x))
  const pairs: DxfPair[] = [
    [0, 'SECTION'],
    [2, 'HEADER'],
    [9, '$ACADVER'],
    [1, 'AC1009'],
    [9, '$DWGCODEPAGE'],
    [3, 'ANSI_1252'],
    [0, 'ENDSEC'],
    [0, 'SECTION'],
    [2, 'TABLES'],
    ...dxfLayerTable(LAYERS),
    [0, 'ENDSEC'],
    [0, 'SECTION'],
    [2, 'ENTITIES'],
    ...list.flatMap((m) => shape(m, meridian)),
    ...(all.length > 0 ? dxfWords('GHI_CHU', minE, minN - 2, 1, `Phép đo trên bản đồ, ${crsLabel(meridian)}`) : []),
    [0, 'ENDSEC'],
    [0, 'EOF'],
  ]
  return dxfText(pairs)
}
