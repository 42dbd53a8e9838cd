import { number, provinceName, requireValue, text } from '../values.ts'
import { emptyResult, unnestFrom, type Column, type Kind } from './kind.ts'

type Row = { province: string; cost: number; margin: number; source: string }

/**
 * The residual method's costs for a province (blank: anywhere): the build cost per m² of floor (đ) and
 * the developer's margin (a share, 0.15, or a percentage, 15). A valuation takes the latest import for
 * its province, else the latest for anywhere, else the built-in default (migration 019).
 */
export const residualCosts: Kind = {
  formats: ['csv', 'xlsx', 'xls'],
  geometryTables: [],
  fields: {
    province: { columns: ['tinh_tp', 'province', 'tinh', 'thanh_pho'], label: 'tỉnh/thành phố (province)' },
    build_cost: {
      columns: ['chi_phi_xay_dung', 'suat_dau_tu', 'build_cost', 'build_cost_vnd_per_m2'],
      label: 'chi phí xây dựng đ/m² sàn (build_cost)',
    },
    margin: { columns: ['loi_nhuan', 'margin', 'developer_margin', 'ty_suat_loi_nhuan'], label: 'lợi nhuận (margin)' },
    source: { columns: ['nguon', 'source', 'can_cu'], label: 'nguồn (source)' },
  },
  create(ctx) {
    let rows: Row[] = []
    return {
      add(_rec, get) {
        const margin = requireValue(number(get('margin'), 'lợi nhuận', { min: 0, max: 99 }), 'lợi nhuận (margin)')
        rows.push({
          province: provinceName(get('province')) ?? '',
          cost: Math.round(
            requireValue(
              number(get('build_cost'), 'chi phí xây dựng', { min: 1, thousands: true }),
              'chi phí xây dựng (build_cost)',
            ) * ctx.priceUnit,
          ),
          margin: margin >= 1 ? margin / 100 : margin,
          source: text(get('source')) ?? ctx.source,
        })
      },
      pending: () => rows.length,
      async flush(tx) {
        const batch = rows
        rows = []
        if (batch.length === 0) return emptyResult()
        const cols: Column[] = [
          { name: 'province', type: 'text', values: batch.map((r) => r.province) },
          { name: 'build_cost_vnd_per_m2', type: 'int8', values: batch.map((r) => r.cost) },
          { name: 'developer_margin', type: 'float8', values: batch.map((r) => r.margin) },
          { name: 'source', type: 'text', values: batch.map((r) => r.source) },
        ]
        const names = cols.map((c) => `"${c.name}"`).join(', ')
        const [r] = await tx.query<{ inserted: number }>(
          `with ins as (insert into residual_costs (dataset_id, ${names}) select $1, ${names} from ${unnestFrom(cols, 2)} returning 1)
           select count(*)::int as inserted from ins`,
          [ctx.datasetId, ...cols.map((c) => c.values)],
        )
        return { inserted: r?.inserted ?? 0, repaired: 0, rejected: [] }
      },
    }
  },
}
