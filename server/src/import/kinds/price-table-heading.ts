import { foldVietnamese } from '#core/text/fold.ts'

/**
 * What a province's price table says above its columns: the unit of its prices, the decision that
 * publishes it and the district the sheet lists. From TP.HCM's Decision 79/2024 (Phụ lục 2):
 * "BẢNG GIÁ ĐẤT Ở QUẬN 1", "(Ban hành theo Quyết định số 79/2024/QĐ-UBND ngày 21 tháng 10 năm 2024 …)",
 * "Đơn vị tính: 1.000 đồng/m2".
 */
export type TableHeading = {
  /** đồng per unit of the table's prices: 1000 for "1.000 đồng/m2"; null when no unit line. */
  unit: number | null
  decisionNo: string | null
  /** YYYY-MM-DD. */
  decisionDate: string | null
  /** "Quận 1", "Huyện Củ Chi", "Thành phố Thủ Đức"; null when the title names none. */
  district: string | null
}

/** "1.000 đồng/m2", "nghìn đồng/m²", "đồng/m2", "triệu đồng/m2" → đồng per unit. */
export function unitOf(line: string): number | null {
  const f = foldVietnamese(line)
  if (!/don vi( tinh)?\b/.test(f)) return null
  const m = /:\s*(?:([\d.,\s]+)\s*)?(nghin|ngan|trieu)?\s*dong/.exec(f)
  if (!m) return null
  const count = m[1] ? Number(m[1].replace(/[.,\s]/g, '')) : 1
  const word = m[2] === 'trieu' ? 1_000_000 : m[2] ? 1000 : 1
  return count > 0 ? count * word : null
}

const pad = (n: string) => n.padStart(2, '0')

/** "Quyết định số 79/2024/QĐ-UBND ngày 21 tháng 10 năm 2024" or "… ngày 15/01/2026". */
export function decisionOf(line: string): { no: string; date: string | null } | null {
  const no = /quyết\s+định\s+(?:số\s*)?:?\s*(\d+[/\w.Đđ-]*\/[\wĐđ-]+)/iu.exec(line)
  if (!no) return null
  const rest = line.slice(no.index + no[0].length)
  const words = /ngày\s+(\d{1,2})\s+tháng\s+(\d{1,2})\s+năm\s+(\d{4})/iu.exec(rest)
  const digits = /ngày\s+(\d{1,2})[/.-](\d{1,2})[/.-](\d{4})/iu.exec(rest)
  const d = words ?? digits
  return { no: no[1]!.replace(/qđ/giu, 'QĐ'), date: d ? `${d[3]}-${pad(d[2]!)}-${pad(d[1]!)}` : null }
}

const capitalise = (s: string) =>
  s
    .toLocaleLowerCase('vi')
    .split(' ')
    .map((w) => w.charAt(0).toLocaleUpperCase('vi') + w.slice(1))
    .join(' ')

/** "BẢNG GIÁ ĐẤT Ở QUẬN 1" → "Quận 1"; "BẢNG GIÁ ĐẤT Ở TẠI ĐÔ THỊ - HUYỆN CỦ CHI" → "Huyện Củ Chi". */
export function districtOf(line: string): string | null {
  if (!/^bang gia/.test(foldVietnamese(line))) return null
  const m = /((?:quận|huyện|thị xã|thành phố)\s+\S.*)$/iu.exec(line.replace(/\s+/g, ' '))
  return m
    ? capitalise(m[1]!.trim()).replace(
        /^(Thành|Thị) (Phố|Xã)/u,
        (w) => w.charAt(0) + w.slice(1).toLocaleLowerCase('vi'),
      )
    : null
}

export function readHeading(lines: readonly string[]): TableHeading {
  const out: TableHeading = { unit: null, decisionNo: null, decisionDate: null, district: null }
  for (const line of lines) {
    out.unit ??= unitOf(line)
    out.district ??= districtOf(line)
    if (out.decisionNo === null) {
      const d = decisionOf(line)
      if (d) [out.decisionNo, out.decisionDate] = [d.no, d.date]
    }
  }
  return out
}
