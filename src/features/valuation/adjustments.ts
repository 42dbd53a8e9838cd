import type { Adjustment, Comparable, ValuationData, ValuationInput } from '#core/contract/lookups.ts'
import { formatArea, formatMeters, formatMoneyShort, formatNumber, formatVndPerM2 } from '../../lib/format/format.ts'

/** Column headings of the adjustment table, in the server's order. */
export const FACTOR_LABELS: Record<Adjustment['factor'], string> = {
  location: 'Vị trí',
  alley: 'Hẻm',
  area: 'Diện tích',
  frontage: 'Mặt tiền',
  floors: 'Số tầng',
  time: 'Thời gian',
}
export const FACTOR_ORDER = Object.keys(FACTOR_LABELS) as Adjustment['factor'][]

/** A change in percent as people read it: "−34 %", "+2,1 %", "0 %". */
export function signedPercent(pct: number, digits = 1): string {
  const shown = formatNumber(Math.abs(pct), digits)
  // A no-break space: the sign, the number and "%" never part at a line end.
  if (shown === '0') return '0\u00a0%'
  return `${pct > 0 ? '+' : '−'}${shown}\u00a0%`
}

/** A change in đ/m² as a short sum: "−35,2 triệu", "+800.000 đ". */
export function signedMoney(vnd: number): string {
  if (vnd === 0) return '0'
  return `${vnd > 0 ? '+' : '−'}${formatMoneyShort(Math.abs(vnd))}`
}

/** A sale's chain written out in whole đồng, so anyone can redo it: "102.941.176 × (1 + 7,49 %) = 110.651.470 đ/m²". */
export function adjustmentFormula(c: Comparable): string | null {
  if (!c.adjustments || c.adjusted_vnd_per_m2 === undefined) return null
  const steps = c.adjustments
    .filter((a) => a.pct !== 0)
    .map((a) => `(1 ${a.pct > 0 ? '+' : '−'} ${formatNumber(Math.abs(a.pct), 2)} %)`)
  return `${[formatNumber(c.vnd_per_m2), ...steps].join(' × ')} = ${formatVndPerM2(c.adjusted_vnd_per_m2)}`
}

/** A weight as a share: "12,3 %", small ones with a decimal so none reads "0 %". */
export function weightText(w: number): string {
  return `${formatNumber(w * 100, w < 0.1 ? 1 : 0)} %`
}

/** What the parcel row calls a comparable: its own earlier sale, a house in its row, or a nearby sale. */
export function relationLabel(c: Comparable): string | null {
  if (c.repeat_sale) return 'Chính thửa này'
  if (c.same_row) return 'Cùng dãy nhà'
  return null
}

/** Whether a result carries the adjustment fields (results saved before them do not). */
export function hasAdjustments(d: ValuationData): boolean {
  return (
    d.comparables.length > 0 &&
    d.comparables.every((c) => c.adjustments !== undefined && c.adjusted_vnd_per_m2 !== undefined)
  )
}

const FIELD_LABELS: Record<ValuationInput['field'], string> = {
  area_m2: 'Diện tích',
  frontage_m: 'Mặt tiền',
  alley_width_m: 'Hẻm',
  floors: 'Số tầng',
  vt1: 'Giá nhà nước VT1 của tuyến',
}
const FROM_LABELS: Record<ValuationInput['from'], string> = {
  typed: 'bạn nhập',
  parcel: 'dữ liệu thửa đất',
  default: 'mặc định',
}

/** One input as a line of the "Dữ liệu đã dùng" list: label, value and where it came from. */
export function inputLine(i: ValuationInput): { label: string; value: string; from: string } {
  const v = i.value
  let value: string
  switch (i.field) {
    case 'area_m2':
      value = v === null ? 'không rõ' : formatArea(v)
      break
    case 'frontage_m':
      value = v === null ? 'không rõ' : formatMeters(v)
      break
    case 'alley_width_m':
      value = v === null || v === 0 ? 'mặt tiền đường' : `rộng ${formatMeters(v)}`
      break
    case 'floors':
      value = v === null ? 'không rõ — không điều chỉnh theo tầng' : `${formatNumber(v)} tầng`
      break
    case 'vt1':
      value = v === null ? 'không có' : `${formatMoneyShort(v)}/m²`
      break
  }
  return { label: FIELD_LABELS[i.field], value, from: FROM_LABELS[i.from] }
}
