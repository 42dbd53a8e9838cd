import { gdalVectorFormats } from '../types.ts'
import type { Geometry } from 'geojson'
import { parsePlanLevel, PLAN_LEVELS, type PlanLevel } from '#core/planning/plan-levels.ts'
import { RowError } from '../errors.ts'
import { prepareGeometry } from '../geometry.ts'
import { date, number, requireValue, text } from '../values.ts'
import { emptyResult, insertPolygons, type Kind } from './kind.ts'

type Plan = { name: string; level: PlanLevel; decisionNo: string; approvedAt: string }
type Row = {
  n: number
  geometry: Geometry
  planKey: string
  landUse: string
  block: string
  density: number | null
  floors: number | null
  far: number | null
}

/** The plan level as the file writes it (core/planning/plan-levels.ts reads the usual spellings). */
export function planLevel(v: string): PlanLevel {
  const level = parsePlanLevel(v)
  if (!level) throw new RowError(`cấp quy hoạch không rõ: ${JSON.stringify(v)} (cần ${PLAN_LEVELS.join(', ')})`)
  return level
}

export function landUseCode(v: string): string {
  const code = v.trim().toUpperCase()
  if (!/^[A-Z]{2,4}$/.test(code)) throw new RowError(`mã loại đất không hợp lệ: ${JSON.stringify(v)}`)
  return code
}

export const planning: Kind = {
  formats: ['geojson', 'shapefile', ...gdalVectorFormats],
  geometryTables: ['planning_zones'],
  fields: {
    plan_name: { columns: ['ten_do_an', 'ten_qh', 'plan_name'], label: 'tên đồ án (plan_name)', required: true },
    plan_level: {
      columns: ['cap_qh', 'loai_qh', 'plan_level', 'level'],
      label: 'cấp quy hoạch (plan_level)',
      required: true,
    },
    decision_no: {
      columns: ['so_qd', 'so_quyet_dinh', 'decision_no'],
      label: 'số quyết định (decision_no)',
      required: true,
    },
    approved_at: {
      columns: ['ngay_pd', 'ngay_phe_duyet', 'approved_at'],
      label: 'ngày phê duyệt (approved_at)',
      required: true,
    },
    land_use_code: {
      columns: ['ma_chuc_nang', 'ma_ld', 'loai_dat', 'chuc_nang', 'land_use_code', 'KHLOAIDAT'],
      label: 'mã chức năng/loại đất (land_use_code)',
      required: true,
    },
    block_code: { columns: ['ky_hieu', 'ky_hieu_o', 'o_dat', 'ma_o', 'block_code'], label: 'ký hiệu ô (block_code)' },
    max_density_pct: {
      columns: ['mat_do', 'mat_do_xd', 'mdxd', 'max_density_pct', 'density'],
      label: 'mật độ xây dựng % (max_density_pct)',
    },
    max_floors: { columns: ['tang_cao', 'so_tang', 'max_floors', 'floors'], label: 'tầng cao tối đa (max_floors)' },
    max_far: { columns: ['he_so_sdd', 'hssdd', 'hsd', 'max_far', 'far'], label: 'hệ số sử dụng đất (max_far)' },
  },
  create(ctx) {
    let rows: Row[] = []
    // Plans named by the rows, created once per import by the flush of the first batch that needs them.
    const seenPlans = new Set<string>()
    let pendingPlans = new Map<string, Plan>()
    const planIds = new Map<string, number>()
    return {
      add(rec, get) {
        const plan: Plan = {
          name: requireValue(text(get('plan_name')), 'tên đồ án (plan_name)'),
          level: planLevel(requireValue(text(get('plan_level')), 'cấp quy hoạch (plan_level)')),
          decisionNo: requireValue(text(get('decision_no')), 'số quyết định (decision_no)'),
          approvedAt: requireValue(date(get('approved_at'), 'ngày phê duyệt'), 'ngày phê duyệt (approved_at)'),
        }
        const landUse = landUseCode(requireValue(text(get('land_use_code')), 'mã chức năng (land_use_code)'))
        const density = number(get('max_density_pct'), 'mật độ xây dựng', { min: 0, max: 100 })
        const floors = number(get('max_floors'), 'tầng cao', { integer: true, min: 0, max: 200 })
        const far = number(get('max_far'), 'hệ số sử dụng đất', { min: 0, max: 100 })
        const { geometry } = prepareGeometry(rec.geometry, ['polygon'], ctx.project, ctx.crs)
        const planKey = JSON.stringify([plan.name, plan.level, plan.decisionNo, plan.approvedAt])
        if (!seenPlans.has(planKey)) {
          seenPlans.add(planKey)
          pendingPlans.set(planKey, plan)
        }
        rows.push({ n: rec.n, geometry, planKey, landUse, block: text(get('block_code')) ?? '', density, floors, far })
      },
      pending: () => rows.length,
      drain: () => rows.splice(0),
      async flush(tx) {
        const batch = rows
        const plans = pendingPlans
        rows = []
        pendingPlans = new Map()
        if (batch.length === 0) return emptyResult()
        for (const [key, p] of plans) {
          const [created] = await tx.query<{ id: number }>(
            `insert into plans (dataset_id, name, level, decision_no, approved_at) values ($1, $2, $3, $4, $5) returning id::float8 as id`,
            [ctx.datasetId, p.name, p.level, p.decisionNo, p.approvedAt],
          )
          planIds.set(key, created!.id)
        }
        return insertPolygons(tx, 'planning_zones', ctx.datasetId, batch, [
          { name: 'plan_id', type: 'int8', values: batch.map((r) => planIds.get(r.planKey)) },
          { name: 'land_use_code', type: 'text', values: batch.map((r) => r.landUse) },
          { name: 'block_code', type: 'text', values: batch.map((r) => r.block) },
          { name: 'max_density_pct', type: 'float8', values: batch.map((r) => r.density) },
          { name: 'max_floors', type: 'int', values: batch.map((r) => r.floors) },
          { name: 'max_far', type: 'float8', values: batch.map((r) => r.far) },
        ])
      },
    }
  },
}
