import type { CompareData, CompareField, PlanChange, PlanComparison, PlanVersion } from '#core/contract/plans.ts'
import { boxAreaM2, insideVietnam } from '#core/geo/box.ts'
import { MAX_COMPARE_AREA_KM2 } from '#core/limits.ts'
import type { Bbox } from '#core/offline/tile-grid.ts'
import { formatDate, formatLandArea, formatNumber } from '../../lib/format/format.ts'

/** What the compare screen is asked for: a parcel (a point in it) or an area, and optionally the two plans. */
export type CompareSearch = { lat?: number; lng?: number; bbox?: string; from?: string; to?: string }

export const FIELD_LABELS: Record<CompareField, string> = {
  land_use: 'Chức năng sử dụng đất',
  max_density_pct: 'Mật độ xây dựng tối đa',
  max_floors: 'Tầng cao tối đa',
  max_far: 'Hệ số sử dụng đất',
}

/** One side of a change as a person reads it: "ODT — Đất ở tại đô thị", "70%", "7 tầng", "4,2", "Không quy định". */
export function valueText(field: CompareField, value: string | number | null, name: string | null): string {
  if (value === null) return 'Không quy định'
  if (field === 'land_use') return name && name !== value ? `${value} — ${name}` : String(value)
  const n = Number(value)
  if (field === 'max_density_pct') return `${formatNumber(n, 1)}%`
  if (field === 'max_floors') return `${n} tầng`
  return formatNumber(n, 2)
}

/** "Tăng" / "Giảm" for numbers that moved, nothing for land use or a limit added or dropped. */
export function direction(c: Pick<PlanChange, 'field' | 'from' | 'to'>): 'up' | 'down' | null {
  if (c.field === 'land_use' || typeof c.from !== 'number' || typeof c.to !== 'number') return null
  return c.to > c.from ? 'up' : c.to < c.from ? 'down' : null
}

/** The plan as the pickers and headings name it: level, decision and date. */
export function planLabel(p: Pick<PlanVersion, 'plan_level' | 'decision_no' | 'approved_at'>): string {
  return `${p.plan_level} — QĐ ${p.decision_no} ngày ${formatDate(p.approved_at)}`
}

/**
 * A plan in the pickers: the approval date and the decision number first, so a select narrower than the
 * whole label (a phone's) cuts the level, which the line under it spells out, and never the number that
 * tells two versions of one level apart.
 */
export function planOptionLabel(
  p: Pick<PlanVersion, 'plan_level' | 'decision_no' | 'approved_at' | 'replaced_by'>,
): string {
  return `${formatDate(p.approved_at)} · QĐ ${p.decision_no} · ${p.plan_level}${p.replaced_by ? ' (đã được thay thế)' : ''}`
}

/** The chosen plan in full under its picker, wrapping as it needs: name, decision, date and what replaced it. */
export function planDescription(p: Pick<PlanVersion, 'name' | 'decision_no' | 'approved_at' | 'replaced_by'>): string {
  const replaced = p.replaced_by
    ? `, đã được thay thế bởi QĐ ${p.replaced_by.decision_no} ngày ${formatDate(p.replaced_by.approved_at)}`
    : ''
  return `${p.name} · QĐ ${p.decision_no} ngày ${formatDate(p.approved_at)}${replaced}`
}

/**
 * The land both compared plans cover in the place (m²), which the changes' shares are of: the newer
 * plan's area less what only it covers. A box drawn on the map is mostly unplanned ground; a share of
 * the box would say little.
 */
export function plannedAreaM2(data: Pick<CompareData, 'plans' | 'to' | 'comparison' | 'region'>): number {
  const to = data.plans.find((p) => p.id === data.to)
  if (!to || !data.comparison) return data.region.area_m2
  return Math.max(to.area_m2 - data.comparison.only_to_m2, 0)
}

/** "1,20 ha (60%)"-style share of the planned area, empty when there is none. */
export function shareText(m2: number, plannedM2: number): string {
  return plannedM2 > 0 ? `${formatNumber(Math.min((100 * m2) / plannedM2, 100), 0)}%` : ''
}

/** Per field, the area in m² where its value changed (a place may change in several fields at once). */
export function changedAreaByField(comparison: Pick<PlanComparison, 'changes'>): Record<CompareField, number> {
  const out: Record<CompareField, number> = { land_use: 0, max_density_pct: 0, max_floors: 0, max_far: 0 }
  for (const c of comparison.changes) out[c.field] += c.area_m2
  return out
}

/** The one-line verdict at the top: what changed, in how much of the land both plans cover. */
export function verdict(comparison: PlanComparison, plannedM2: number): string {
  const byField = changedAreaByField(comparison)
  const changed = (Object.keys(byField) as CompareField[]).filter((f) => byField[f] > 0)
  const reserves = comparison.road_reserves.length
  if (changed.length === 0 && reserves === 0 && comparison.only_from_m2 === 0 && comparison.only_to_m2 === 0)
    return 'Hai đồ án giống nhau ở đây: không chỉ tiêu nào thay đổi.'
  const parts = changed.map(
    (f) =>
      `${FIELD_LABELS[f].toLowerCase()} (${formatLandArea(byField[f])}${plannedM2 > 0 ? `, ${shareText(byField[f], plannedM2)}` : ''})`,
  )
  if (reserves > 0) parts.push(`lộ giới ${reserves} tuyến đường`)
  return parts.length > 0 ? `Thay đổi: ${parts.join('; ')}.` : 'Chỉ phạm vi hai đồ án khác nhau.'
}

/** Area of a box in km², measured as the server measures it (core/geo/box.ts). */
export function bboxAreaKm2(b: Bbox): number {
  return boxAreaM2(b) / 1_000_000
}

/** Whether the area on screen is one the server compares: in Việt Nam and small enough (core/limits.ts). */
export function comparableArea(b: Bbox): boolean {
  return insideVietnam(b) && bboxAreaKm2(b) <= MAX_COMPARE_AREA_KM2
}

/** The box as the address and the API write it, 6 decimals (≈ 0.1 m). */
export function bboxParam(b: Bbox): string {
  return b.map((v) => v.toFixed(6)).join(',')
}

type Geometry = { type: string; coordinates: unknown }
type Ring = [number, number][]

/** The rings of a GeoJSON polygon or multipolygon (anything else has none to draw). */
function ringsOf(g: Geometry): Ring[] {
  if (g.type === 'Polygon') return g.coordinates as Ring[]
  if (g.type === 'MultiPolygon') return (g.coordinates as Ring[][]).flat()
  if (g.type === 'GeometryCollection')
    return ((g as unknown as { geometries: Geometry[] }).geometries ?? []).flatMap(ringsOf)
  return []
}

/**
 * A drawing frame in metres around the place, north up (SVG's y runs down): a local equirectangular
 * projection, exact enough at a ward's size to show where each change lies.
 */
export function drawingFrame(region: Geometry, marginShare = 0.04) {
  const pts = ringsOf(region).flat()
  const lngs = pts.map((p) => p[0])
  const lats = pts.map((p) => p[1])
  const [w, e, s, n] = [Math.min(...lngs), Math.max(...lngs), Math.min(...lats), Math.max(...lats)]
  const lat0 = (s + n) / 2
  const kx = 111_320 * Math.cos((lat0 * Math.PI) / 180)
  const ky = 110_574
  const project = ([lng, lat]: [number, number]): [number, number] => [(lng - w) * kx, (n - lat) * ky]
  const width = Math.max((e - w) * kx, 1)
  const height = Math.max((n - s) * ky, 1)
  const m = Math.max(width, height) * marginShare
  return {
    viewBox: `${-m} ${-m} ${width + 2 * m} ${height + 2 * m}`,
    /** An SVG path of the geometry's rings (draw with fill-rule evenodd so holes stay open). */
    path(g: Geometry): string {
      return ringsOf(g)
        .map(
          (ring) =>
            `M${ring
              .map((p) =>
                project(p)
                  .map((v) => v.toFixed(1))
                  .join(' '),
              )
              .join('L')}Z`,
        )
        .join('')
    },
    /** Stroke width that reads the same whatever the size of the place. */
    stroke: Math.max(width, height) / 250,
  }
}
