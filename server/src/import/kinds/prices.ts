import { ImportError } from '../errors.ts'
import { number, provinceName, requireValue, text } from '../values.ts'
import type { FieldGetter } from '../fields.ts'
import type { Rejection, SourceRecord } from '../types.ts'
import { emptyResult, unnestFrom, type Column, type Kind } from './kind.ts'
import { readHeading, type TableHeading } from './price-table-heading.ts'

type Row = {
  n: number
  sheet: string
  province: string
  district: string
  street: string
  from: string
  to: string
  year: number
  vt: [number, number | null, number | null, number | null]
  source: string
  decisionNo: string
  decisionDate: string | null
}

/** "Từ Lê Lợi đến Tôn Đức Thắng", "Từ Lê Lợi - Đến Hàm Nghi": one "Đoạn đường" cell holding both ends. */
const segmentPattern = /^từ\s+(.+?)[\s,;–-]*\s+đến\s+(.+)$/iu

export function splitSegment(segment: string): { from: string; to: string } {
  const m = segmentPattern.exec(segment)
  return m ? { from: m[1]!.trim(), to: m[2]!.trim() } : { from: segment, to: '' }
}

const PRICE_FIELDS = ['vt1', 'vt2', 'vt3', 'vt4'] as const

/** A price cell that holds a price: a number above 0 (group headings write 0 or nothing). */
function pricedCell(v: unknown): boolean {
  const t = text(v)
  if (t === null) return false
  try {
    return (number(t, 'giá', { thousands: true }) ?? 0) > 0
  } catch {
    return true // text where a price belongs: a row, to be reported as such
  }
}

/**
 * State price table rows (bảng giá đất): a street segment with prices for positions VT1–VT4, as a
 * province publishes them (kinds of rows below).
 *
 * - A street spanning several segments is one merged cell in the workbook (and an empty cell in its
 *   CSV export): a row with prices or a segment but no street takes the street of the row above on the
 *   same sheet.
 * - A group heading, a numbered row with a name but neither price nor segment ("ĐƯỜNG NỘI BỘ KHU DÂN CƯ
 *   TÂN QUY ĐÔNG", price 0), names the unnumbered rows under it: "ĐƯỜNG >= 16M" becomes "ĐƯỜNG NỘI BỘ
 *   KHU DÂN CƯ TÂN QUY ĐÔNG – ĐƯỜNG >= 16M". A heading no such row follows (a section such as "I. QUẬN 2
 *   (CŨ)") is reported, and the street stops carrying past it.
 * - A sheet's heading lines give the unit ("Đơn vị tính: 1.000 đồng/m2", unless --price-unit says),
 *   the decision and its date, and the district the sheet lists (else a district column, else the
 *   sheet's name).
 */
export const prices: Kind = {
  formats: ['csv', 'xlsx', 'xls'],
  geometryTables: [],
  fields: {
    province: { columns: ['tinh_tp', 'province', 'tinh', 'thanh_pho'], label: 'tỉnh/thành phố (province)' },
    district: {
      columns: ['quan_huyen', 'district', 'quan', 'huyen', 'quan_huyen_thi_xa'],
      label: 'quận/huyện (district)',
    },
    stt: { columns: ['stt', 'so_thu_tu', 'tt'], label: 'số thứ tự (stt)' },
    street_name: {
      columns: ['ten_duong', 'ten_duong_pho', 'tuyen_duong', 'duong', 'street_name', 'street'],
      label: 'tên đường (street_name)',
    },
    segment: { columns: ['doan_duong', 'doan', 'segment'], label: 'đoạn đường "Từ … đến …" (segment)' },
    segment_from: {
      columns: ['tu', 'doan_tu', 'segment_from', 'from', 'tu (diem dau)', 'diem_dau'],
      label: 'đoạn từ (segment_from)',
    },
    segment_to: {
      columns: ['den', 'doan_den', 'segment_to', 'to', 'den (diem cuoi)', 'diem_cuoi'],
      label: 'đoạn đến (segment_to)',
    },
    year: { columns: ['nam', 'year'], label: 'năm (year)' },
    vt1: { columns: ['vt1', 'gia_vt1', 'vi_tri_1', 'gia_dat'], label: 'giá VT1 (vt1)' },
    vt2: { columns: ['vt2', 'gia_vt2', 'vi_tri_2'], label: 'giá VT2 (vt2)' },
    vt3: { columns: ['vt3', 'gia_vt3', 'vi_tri_3'], label: 'giá VT3 (vt3)' },
    vt4: { columns: ['vt4', 'gia_vt4', 'vi_tri_4'], label: 'giá VT4 (vt4)' },
    decision_no: { columns: ['so_quyet_dinh', 'quyet_dinh', 'decision_no'], label: 'số quyết định (decision_no)' },
    source: { columns: ['nguon', 'source', 'can_cu'], label: 'nguồn (source)' },
  },
  create(ctx) {
    let rows: Row[] = []
    let late: Rejection[] = []
    const defaultYear = Number(ctx.date.slice(0, 4))
    const headings = new Map<string, TableHeading>()
    const headingOf = (rec: SourceRecord) => {
      const key = rec.sheet ?? ''
      let h = headings.get(key)
      if (!h) headings.set(key, (h = readHeading(rec.heading ?? [])))
      return h
    }
    let carried: { sheet: string | undefined; street: string } | null = null
    let group: { sheet: string | undefined; name: string; n: number; used: boolean } | null = null
    let provinceSeen = false
    const closeGroup = () => {
      if (group && !group.used) {
        const at = group.sheet === undefined ? { n: group.n } : { n: group.n, sheet: group.sheet }
        late.push({ ...at, reason: `dòng tiêu đề mục "${group.name}" không có giá, không có dòng nào thuộc nó` })
      }
      group = null
    }

    /** The row's full street name, or null for a heading (kept to name the rows under it). */
    const streetOf = (rec: SourceRecord, get: FieldGetter): string | null | 'heading' => {
      const own = text(get('street_name'))
      const numbered = text(get('stt')) !== null
      const priced = PRICE_FIELDS.some((f) => pricedCell(get(f)))
      const segmented = ['segment_from', 'segment_to', 'segment'].some((f) => text(get(f)) !== null)
      if (group?.sheet !== rec.sheet) closeGroup()
      if (carried?.sheet !== rec.sheet) carried = null
      if (own !== null && !priced && !segmented) {
        closeGroup()
        group = { sheet: rec.sheet, name: own, n: rec.n, used: false }
        carried = null
        return 'heading'
      }
      let street = own
      if (own !== null && !numbered && group) {
        street = `${group.name} – ${own}`
        group.used = true
      } else if (own !== null) {
        closeGroup()
      } else if (!priced && !segmented) {
        carried = null
      }
      street ??= carried?.street ?? null
      carried = street === null ? null : { sheet: rec.sheet, street }
      return street
    }

    return {
      add(rec, get) {
        const street = streetOf(rec, get)
        if (street === 'heading') return
        const heading = headingOf(rec)
        const unit = ctx.priceUnitGiven ? ctx.priceUnit : (heading.unit ?? ctx.priceUnit)
        const price = (v: unknown, label: string) => {
          const p = number(v, label, { min: 1, thousands: true })
          return p === null ? null : Math.round(p * unit)
        }
        const province = provinceName(get('province'))
        if (province === null && !provinceSeen)
          throw new ImportError(
            'Bảng giá không ghi tỉnh/thành phố; thêm --province "<tỉnh/thành phố>" (ví dụ --province "TP. Hồ Chí Minh")',
          )
        provinceSeen = true
        // "Từ … đến …" in one cell: a "Đoạn đường" column, or the Từ cell merged over Đến.
        const from = text(get('segment_from'))
        const to = text(get('segment_to'))
        const segment = to === null ? splitSegment(from ?? text(get('segment')) ?? '') : { from: from ?? '', to }
        rows.push({
          n: rec.n,
          sheet: rec.sheet ?? '',
          province: requireValue(province, 'tỉnh/thành phố (province)'),
          district: text(get('district')) ?? heading.district ?? rec.sheet ?? '',
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
          decisionNo: text(get('decision_no')) ?? heading.decisionNo ?? '',
          decisionDate: heading.decisionDate,
        })
      },
      pending: () => rows.length,
      // A heading left without rows is known only once the next row, or the end of the file, is read.
      end: closeGroup,
      async flush(tx) {
        const batch = rows
        rows = []
        const rejected = late
        late = []
        if (batch.length === 0) return { ...emptyResult(), rejected }
        const cols: Column[] = [
          { name: 'province', type: 'text', values: batch.map((r) => r.province) },
          { name: 'district', type: 'text', values: batch.map((r) => r.district) },
          { name: 'street_name', type: 'text', values: batch.map((r) => r.street) },
          { name: 'segment_from', type: 'text', values: batch.map((r) => r.from) },
          { name: 'segment_to', type: 'text', values: batch.map((r) => r.to) },
          { name: 'year', type: 'int', values: batch.map((r) => r.year) },
          { name: 'vt1', type: 'int8', values: batch.map((r) => r.vt[0]) },
          { name: 'vt2', type: 'int8', values: batch.map((r) => r.vt[1]) },
          { name: 'vt3', type: 'int8', values: batch.map((r) => r.vt[2]) },
          { name: 'vt4', type: 'int8', values: batch.map((r) => r.vt[3]) },
          { name: 'source', type: 'text', values: batch.map((r) => r.source) },
          { name: 'decision_no', type: 'text', values: batch.map((r) => r.decisionNo) },
          { name: 'decision_date', type: 'date', values: batch.map((r) => r.decisionDate) },
          { name: 'effective_from', type: 'date', values: batch.map(() => ctx.date) },
          { name: 'sheet', type: 'text', values: batch.map((r) => r.sheet) },
          { name: 'row_no', type: 'int', values: batch.map((r) => r.n) },
        ]
        const names = cols.map((c) => `"${c.name}"`).join(', ')
        const [r] = await tx.query<{ inserted: number }>(
          `with ins as (insert into price_rows (dataset_id, ${names}) select $1, ${names} from ${unnestFrom(cols, 2)} returning 1)
           select count(*)::int as inserted from ins`,
          [ctx.datasetId, ...cols.map((c) => c.values)],
        )
        return { inserted: r?.inserted ?? 0, repaired: 0, rejected }
      },
    }
  },
}
