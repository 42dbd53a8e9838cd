import { resolveProvince } from '#core/geo/provinces.ts'
import { RowError } from './errors.ts'

/**
 * Text of a cell or property, in NFC; null when absent or blank. Sources mix composed and decomposed
 * Vietnamese (windows-1258 is decomposed by design), and search folds only what is stored consistently.
 */
export function text(v: unknown): string | null {
  if (v === null || v === undefined) return null
  const s = (v instanceof Date ? v.toISOString().slice(0, 10) : String(v)).trim().normalize('NFC')
  return s === '' ? null : s
}

/**
 * A province column as one name: "TP. Hồ Chí Minh", "TP.HCM" and "Ho Chi Minh" are all stored as
 * "Thành phố Hồ Chí Minh" (core/geo/provinces.ts), so lookups, price tables and the VN-2000 meridian
 * find it; a name that is no province is kept as written.
 */
export function provinceName(v: unknown): string | null {
  const t = text(v)
  return t === null ? null : (resolveProvince(t)?.name ?? t)
}

export function requireValue<T>(v: T | null, label: string): T {
  if (v === null) throw new RowError(`thiếu ${label}`)
  return v
}

/**
 * A number from a file written in Vietnamese or English habits. Rules, in order: with both `.` and `,`
 * the last one is the decimal mark; a `.` or `,` repeated groups thousands ("12.500.000"), and so does
 * a lone one followed by exactly three digits in a count or money field (`thousands`, implied by
 * `integer`: "12.500", "1,500"); otherwise a lone `,` is the Vietnamese decimal comma ("1234,5") and
 * a lone `.` the decimal point.
 */
export function number(
  v: unknown,
  label: string,
  opts: { integer?: boolean; thousands?: boolean; min?: number; max?: number } = {},
): number | null {
  let n: number
  if (typeof v === 'number') {
    n = v
  } else {
    const s = text(v)
    if (s === null) return null
    n = parseNumberText(s.replace(/[\s\u00a0]/g, ''), opts.thousands ?? opts.integer ?? false)
  }
  if (!Number.isFinite(n)) throw new RowError(`${label} không phải số: ${JSON.stringify(text(v))}`)
  if (opts.integer && !Number.isInteger(n)) throw new RowError(`${label} phải là số nguyên: ${JSON.stringify(text(v))}`)
  if (opts.min !== undefined && n < opts.min) throw new RowError(`${label} ${n} nhỏ hơn ${opts.min}`)
  if (opts.max !== undefined && n > opts.max) throw new RowError(`${label} ${n} lớn hơn ${opts.max}`)
  return n
}

function parseNumberText(s: string, thousands: boolean): number {
  if (!/^[-+]?[\d.,]*\d[\d.,]*$/.test(s)) return Number.NaN
  const dots = s.split('.').length - 1
  const commas = s.split(',').length - 1
  let normalized: string
  if (dots > 0 && commas > 0) {
    const decimal = s.lastIndexOf('.') > s.lastIndexOf(',') ? '.' : ','
    const group = decimal === '.' ? ',' : '.'
    if (s.split(decimal).length - 1 > 1) return Number.NaN
    normalized = s.split(group).join('').replace(decimal, '.')
  } else if (dots + commas === 0) {
    normalized = s
  } else {
    const mark = dots > 0 ? '.' : ','
    const grouped = /^[-+]?\d{1,3}([.,]\d{3})+$/.test(s)
    if (dots + commas > 1) {
      if (!grouped) return Number.NaN
      normalized = s.split(mark).join('')
    } else if (thousands && grouped) {
      normalized = s.replace(mark, '')
    } else {
      normalized = s.replace(',', '.')
    }
  }
  return Number(normalized)
}

/** A calendar date as YYYY-MM-DD from ISO (2024-03-15), Vietnamese (15/03/2024, 15-03-2024) or a DBF date. */
export function date(v: unknown, label: string): string | null {
  if (v instanceof Date) {
    if (Number.isNaN(v.getTime())) throw new RowError(`${label} không phải ngày hợp lệ`)
    return v.toISOString().slice(0, 10)
  }
  const s = text(v)
  if (s === null) return null
  let y: number, m: number, d: number
  const iso = /^(\d{4})-(\d{1,2})-(\d{1,2})(?:[T ].*)?$/.exec(s)
  const vn = /^(\d{1,2})[/.-](\d{1,2})[/.-](\d{4})$/.exec(s)
  if (iso) [y, m, d] = [Number(iso[1]), Number(iso[2]), Number(iso[3])]
  else if (vn) [d, m, y] = [Number(vn[1]), Number(vn[2]), Number(vn[3])]
  else throw new RowError(`${label} không phải ngày (YYYY-MM-DD hoặc DD/MM/YYYY): ${JSON.stringify(s)}`)
  const dt = new Date(Date.UTC(y, m - 1, d))
  if (dt.getUTCFullYear() !== y || dt.getUTCMonth() !== m - 1 || dt.getUTCDate() !== d) {
    throw new RowError(`${label} không phải ngày có thật: ${JSON.stringify(s)}`)
  }
  return dt.toISOString().slice(0, 10)
}

/** Validates a YYYY-MM-DD option value; null when it is not a real date. */
export function isoDate(s: string): string | null {
  if (!/^\d{4}-\d{2}-\d{2}$/.test(s)) return null
  try {
    return date(s, 'ngày')
  } catch {
    return null
  }
}
