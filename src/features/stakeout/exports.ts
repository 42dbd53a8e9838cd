import { dxfLayerTable, dxfText, type DxfPair } from '../../lib/dxf.ts'
import { crsLabel } from '../sketch/index.ts'
import { QUALITY_WORDS } from '../position/index.ts'
import { markOffset, type Mark } from './marks.ts'

const STATUS = { found: 'đã tìm thấy mốc', lost: 'mốc bị mất' } as const
const f3 = (v: number) => v.toFixed(3)
const csvCell = (s: string) => (/[",\r\n]/.test(s) ? `"${s.replace(/"/g, '""')}"` : s)

/**
 * The stakeout results as CSV: per mark the recorded VN-2000 X/Y, the measured X/Y, their difference,
 * accuracy and solution type, averaging, time and photo; point as decimal separator, UTF-8 with a BOM.
 */
export function marksCsv(marks: readonly Mark[], photoIds: ReadonlyMap<string, string | null> = new Map()): string {
  const head = [
    'Điểm',
    'Thửa',
    'Trạng thái',
    'Hệ toạ độ',
    'X ghi (m)',
    'Y ghi (m)',
    'X đo (m)',
    'Y đo (m)',
    'ΔX (m)',
    'ΔY (m)',
    'Lệch (m)',
    'Sai số (m)',
    'Lời giải',
    'Số lần đo',
    'σ trung bình (m)',
    'Thời điểm',
    'Ảnh',
    'Ghi chú',
  ]
  const rows = marks.map((m) => {
    const o = markOffset(m)
    const photo = m.photoId ? (photoIds.get(m.photoId) ?? 'chờ gửi') : ''
    return [
      m.target.label,
      m.subject ?? '',
      STATUS[m.status],
      crsLabel(m.target.meridian),
      f3(m.target.x),
      f3(m.target.y),
      m.measured ? f3(m.measured.x) : '',
      m.measured ? f3(m.measured.y) : '',
      o ? f3(o.dx) : '',
      o ? f3(o.dy) : '',
      o ? f3(o.d) : '',
      m.measured ? f3(m.measured.accuracyM) : '',
      m.measured ? QUALITY_WORDS[m.measured.quality] : '',
      m.measured ? String(m.measured.samples) : '',
      m.measured?.sigmaM != null ? f3(m.measured.sigmaM) : '',
      new Date(m.at).toISOString(),
      photo,
      m.note,
    ]
      .map(csvCell)
      .join(',')
  })
  return `\uFEFF${[head.join(','), ...rows].join('\r\n')}\r\n`
}

/** The results as GeoJSON (WGS84 lon/lat, as the format requires): the measured point, else the recorded one. */
export function marksGeoJson(marks: readonly Mark[]): string {
  return JSON.stringify({
    type: 'FeatureCollection',
    features: marks.map((m) => {
      const o = markOffset(m)
      const at = m.measured ?? null
      return {
        type: 'Feature',
        geometry: at ? { type: 'Point', coordinates: [at.lng, at.lat] } : null,
        properties: {
          point: m.target.label,
          parcel: m.subject,
          status: m.status,
          crs: crsLabel(m.target.meridian),
          recorded_x: m.target.x,
          recorded_y: m.target.y,
          measured_x: at?.x ?? null,
          measured_y: at?.y ?? null,
          dx: o?.dx ?? null,
          dy: o?.dy ?? null,
          offset_m: o?.d ?? null,
          accuracy_m: at?.accuracyM ?? null,
          quality: at?.quality ?? null,
          samples: at?.samples ?? null,
          sigma_m: at?.sigmaM ?? null,
          at: new Date(m.at).toISOString(),
          photo_queue_id: m.photoId,
          note: m.note,
        },
      }
    }),
  })
}

const point = (layer: string, x: number, y: number): DxfPair[] => [
  [0, 'POINT'],
  [8, layer],
  [10, f3(y)],
  [20, f3(x)],
  [30, '0.0'],
]
const text = (layer: string, x: number, y: number, h: number, value: string): DxfPair[] => [
  [0, 'TEXT'],
  [8, layer],
  [10, f3(y + h / 3)],
  [20, f3(x + h / 3)],
  [30, '0.0'],
  [40, f3(h)],
  [1, value],
]

/**
 * The results as an ASCII DXF (R12): recorded points on MOC_GHI, measured points on MOC_DO, a LINE from
 * each recorded point to its measured one on LECH, and labels; drawing X = easting (VN-2000 Y), drawing
 * Y = northing (VN-2000 X), as the sketch's DXF.
 */
export function marksDxf(marks: readonly Mark[]): string {
  const entities: DxfPair[] = marks.flatMap((m): DxfPair[] => {
    const label = m.target.label.normalize('NFD').replace(/[^\x20-\x7e]/g, '')
    const out: DxfPair[] = [
      ...point('MOC_GHI', m.target.x, m.target.y),
      ...text('SO_HIEU_DIEM', m.target.x, m.target.y, 0.2, label),
    ]
    if (m.measured) {
      out.push(...point('MOC_DO', m.measured.x, m.measured.y))
      out.push(
        [0, 'LINE'],
        [8, 'LECH'],
        [10, f3(m.target.y)],
        [20, f3(m.target.x)],
        [30, '0.0'],
        [11, f3(m.measured.y)],
        [21, f3(m.measured.x)],
        [31, '0.0'],
      )
    }
    return out
  })
  const layers = ['MOC_GHI', 'MOC_DO', 'LECH', 'SO_HIEU_DIEM']
  const pairs: DxfPair[] = [
    [0, 'SECTION'],
    [2, 'HEADER'],
    [9, '$ACADVER'],
    [1, 'AC1009'],
    [0, 'ENDSEC'],
    [0, 'SECTION'],
    [2, 'TABLES'],
    ...dxfLayerTable(layers.map((name, i) => ({ name, color: i + 1 }))),
    [0, 'ENDSEC'],
    [0, 'SECTION'],
    [2, 'ENTITIES'],
    ...entities,
    [0, 'ENDSEC'],
    [0, 'EOF'],
  ]
  return dxfText(pairs)
}
