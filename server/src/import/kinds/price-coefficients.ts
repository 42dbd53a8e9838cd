import { number, provinceName, requireValue, text } from '../values.ts'
import { emptyResult, unnestFrom, type Column, type Kind } from './kind.ts'

type Row = { province: string; year: number; area: string; street: string; k: number; source: string }

/**
 * Land-price adjustment coefficients (hệ số điều chỉnh giá đất, K), as a province's yearly decision
 * lists them: the province, the year, the area they apply to (a district or ward; blank for the whole
 * province), optionally one street, and K. A valuation then shows the table price × K
 * (server/src/valuation/price-row.ts takes the most specific K of the year in force).
 */
export const priceCoefficients: Kind = {
  formats: ['csv', 'xlsx', 'xls'],
  geometryTables: [],
  fields: {
    province: { columns: ['tinh_tp', 'province', 'tinh', 'thanh_pho'], label: 'tỉnh/thành phố (province)' },
    year: { columns: ['nam', 'year'], label: 'năm (year)' },
    area: {
      columns: ['khu_vuc', 'area', 'quan_huyen', 'phuong_xa', 'district', 'ward'],
      label: 'khu vực: quận/huyện hoặc phường/xã (area)',
    },
    street: { columns: ['tuyen_duong', 'ten_duong', 'street', 'duong'], label: 'tuyến đường (street)' },
    k: { columns: ['he_so_k', 'he_so', 'k', 'he_so_dieu_chinh'], label: 'hệ số K (k)' },
    source: { columns: ['nguon', 'source', 'can_cu', 'quyet_dinh'], label: 'nguồn (source)' },
  },
  create(ctx) {
    let rows: Row[] = []
    const defaultYear = Number(ctx.date.slice(0, 4))
    return {
      add(_rec, get) {
        rows.push({
          province: requireValue(provinceName(get('province')), 'tỉnh/thành phố (province)'),
          year: number(get('year'), 'năm', { integer: true, min: 1990, max: 2100 }) ?? defaultYear,
          area: text(get('area')) ?? '',
          street: text(get('street')) ?? '',
          k: requireValue(number(get('k'), 'hệ số K', { min: 0.01, max: 20 }), 'hệ số K (k)'),
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
          { name: 'year', type: 'int', values: batch.map((r) => r.year) },
          { name: 'area', type: 'text', values: batch.map((r) => r.area) },
          { name: 'street', type: 'text', values: batch.map((r) => r.street) },
          { name: 'k', type: 'float8', values: batch.map((r) => r.k) },
          { name: 'source', type: 'text', values: batch.map((r) => r.source) },
        ]
        const names = cols.map((c) => `"${c.name}"`).join(', ')
        const [r] = await tx.query<{ inserted: number }>(
          `with ins as (insert into price_coefficients (dataset_id, ${names}) select $1, ${names} from ${unnestFrom(cols, 2)} returning 1)
           select count(*)::int as inserted from ins`,
          [ctx.datasetId, ...cols.map((c) => c.values)],
        )
        return { inserted: r?.inserted ?? 0, repaired: 0, rejected: [] }
      },
    }
  },
}
