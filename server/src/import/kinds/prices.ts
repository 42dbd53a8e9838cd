import { number, provinceName, requireValue, text } from '../values.ts'
import type { FieldGetter } from '../fields.ts'
import type { SourceRecord } from '../types.ts'
import { emptyResult, unnestFrom, type Column, type Kind } from './kind.ts'

type Row = {
  n: number
  province: string
  street: string
  from: string
  to: string
  year: number
  vt: [number, number | null, number | null, number | null]
  source: string
}

/** "Từ Lê Lợi đến Tôn Đức Thắng", "Từ Lê Lợi - Đến Hàm Nghi": one "Đoạn đường" cell holding both ends. */
const segmentPattern = /^từ\s+(.+?)[\s,;–-]*\s+đến\s+(.+)$/iu

export function splitSegment(segment: string): { from: string; to: string } {
  const m = segmentPattern.exec(segment)
  return m ? { from: m[1]!.trim(), to: m[2]!.trim() } : { from: segment, to: '' }
}

/**
 * State price table rows (bảng giá đất): a street segment with prices for positions VT1–VT4.
 * A street spanning several segments is one merged cell in the province's workbook (and an empty
 * cell in its CSV export): a row with prices or a segment but no street takes the street of the row
 * above on the same sheet. A row with neither (a section heading such as "II. ĐƯỜNG LOẠI 2") is
 * reported, and the street stops carrying past it.
 */
export const prices: Kind = {
  formats: ['csv', 'xlsx'],
  geometryTables: [],
  fields: {
    province: {
      columns: ['tinh_tp', 'province', 'tinh', 'thanh_pho'],
      label: 'tỉnh/thành phố (province)',
      required: true,
    },
    street_name: {
      columns: ['ten_duong', 'ten_duong_pho', 'tuyen_duong', 'duong', 'street_name', 'street'],
      label: 'tên đường (street_name)',
      required: true,
    },
    segment: { columns: ['doan_duong', 'doan', 'segment'], label: 'đoạn đường "Từ … đến …" (segment)' },
    segment_from: { columns: ['tu', 'doan_tu', 'segment_from', 'from'], label: 'đoạn từ (segment_from)' },
    segment_to: { columns: ['den', 'doan_den', 'segment_to', 'to'], label: 'đoạn đến (segment_to)' },
    year: { columns: ['nam', 'year'], label: 'năm (year)' },
    vt1: { columns: ['vt1', 'gia_vt1', 'vi_tri_1'], label: 'giá VT1 (vt1)', required: true },
    vt2: { columns: ['vt2', 'gia_vt2', 'vi_tri_2'], label: 'giá VT2 (vt2)' },
    vt3: { columns: ['vt3', 'gia_vt3', 'vi_tri_3'], label: 'giá VT3 (vt3)' },
    vt4: { columns: ['vt4', 'gia_vt4', 'vi_tri_4'], label: 'giá VT4 (vt4)' },
    source: { columns: ['nguon', 'source', 'can_cu'], label: 'nguồn (source)' },
  },
  create(ctx) {
    let rows: Row[] = []
    const defaultYear = Number(ctx.date.slice(0, 4))
    const price = (v: unknown, label: string) => {
      const p = number(v, label, { min: 1, thousands: true })
      return p === null ? null : Math.round(p * ctx.priceUnit)
    }
    let carried: { sheet: string | undefined; street: string } | null = null
    const streetOf = (rec: SourceRecord, get: FieldGetter) => {
      const own = text(get('street_name'))
      const priced = ['vt1', 'vt2', 'vt3', 'vt4', 'segment_from', 'segment_to', 'segment'].some(
        (f) => text(get(f)) !== null,
      )
      if (carried?.sheet !== rec.sheet || !priced) carried = null
      const street = own ?? carried?.street ?? null
      carried = street === null || !priced ? null : { sheet: rec.sheet, street }
      return street
    }
    return {
      add(rec, get) {
        const street = streetOf(rec, get)
        // "Từ … đến …" in one cell: a "Đoạn đường" column, or the Từ cell merged over Đến.
        const from = text(get('segment_from'))
        const to = text(get('segment_to'))
        const segment = to === null ? splitSegment(from ?? text(get('segment')) ?? '') : { from: from ?? '', to }
        rows.push({
          n: rec.n,
          province: requireValue(provinceName(get('province')), 'tỉnh/thành phố (province)'),
          street: requireValue(street, 'tên đường (street_name)'),
          from: segment.from,
          to: segment.to,
          year: number(get('year'), 'năm', { integer: true, min: 1990, max: 2100 }) ?? defaultYear,
          vt: [
            requireValue(price(get('vt1'), 'giá VT1'), 'giá VT1 (vt1)'),
            price(get('vt2'), 'giá VT2'),
            price(get('vt3'), 'giá VT3'),
            price(get('vt4'), 'giá VT4'),
          ],
          source: text(get('source')) ?? ctx.source,
        })
      },
      pending: () => rows.length,
      drain: () => rows.splice(0),
      async flush(tx) {
        const batch = rows
        rows = []
        if (batch.length === 0) return emptyResult()
        const cols: Column[] = [
          { name: 'province', type: 'text', values: batch.map((r) => r.province) },
          { name: 'street_name', type: 'text', values: batch.map((r) => r.street) },
          { name: 'segment_from', type: 'text', values: batch.map((r) => r.from) },
          { name: 'segment_to', type: 'text', values: batch.map((r) => r.to) },
          { name: 'year', type: 'int', values: batch.map((r) => r.year) },
          { name: 'vt1', type: 'int8', values: batch.map((r) => r.vt[0]) },
          { name: 'vt2', type: 'int8', values: batch.map((r) => r.vt[1]) },
          { name: 'vt3', type: 'int8', values: batch.map((r) => r.vt[2]) },
          { name: 'vt4', type: 'int8', values: batch.map((r) => r.vt[3]) },
          { name: 'source', type: 'text', values: batch.map((r) => r.source) },
        ]
        const names = cols.map((c) => `"${c.name}"`).join(', ')
        const [r] = await tx.query<{ inserted: number }>(
          `with ins as (insert into price_rows (dataset_id, ${names}) select $1, ${names} from ${unnestFrom(cols, 2)} returning 1)
           select count(*)::int as inserted from ins`,
          [ctx.datasetId, ...cols.map((c) => c.values)],
        )
        return { inserted: r?.inserted ?? 0, repaired: 0, rejected: [] }
      },
    }
  },
}
