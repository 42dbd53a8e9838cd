import type { Factor, PropertyFacts } from './market-model.ts'

/** Short Vietnamese words for what differs between a sale and the target, one per adjustment. */

// One formatter: toLocaleString with options builds a new one on every call, which took half of a
// valuation's CPU (a note or two for each of up to 40 comparables).
const viNumber = new Intl.NumberFormat('vi-VN', { maximumFractionDigits: 1 })
const num = (x: number) => viNumber.format(x)
const million = (vnd: number) => `${num(vnd / 1e6)} triệu`
const alleyText = (w: number | null) => ((w ?? 0) > 0 ? `hẻm ${num(w as number)} m` : 'mặt tiền')
const capital = (s: string) => s.charAt(0).toUpperCase() + s.slice(1)

/** "Hẻm 6 m thay vì mặt tiền": the target's fact first, the sale's after; "giống nhau" when equal. */
export function adjustmentNote(
  factor: Factor,
  target: PropertyFacts,
  sale: PropertyFacts,
  ageMonths: number,
  asOf: string,
): string {
  switch (factor) {
    case 'location':
      return target.vt1 === sale.vt1
        ? 'Cùng mức giá nhà nước VT1 của tuyến đường'
        : `Giá nhà nước VT1 của tuyến ${million(target.vt1 ?? 0)} thay vì ${million(sale.vt1 ?? 0)} đ/m²`
    case 'alley': {
      const t = alleyText(target.alley_width_m)
      const s = alleyText(sale.alley_width_m)
      if (t === s) return `Cùng là ${t}`
      // "Hẻm 6 m thay vì 3 m", never "hẻm … thay vì hẻm …".
      const bothAlleys = (target.alley_width_m ?? 0) > 0 && (sale.alley_width_m ?? 0) > 0
      return capital(`${t} thay vì ${bothAlleys ? `${num(sale.alley_width_m as number)} m` : s}`)
    }
    case 'area':
      return target.area_m2 === sale.area_m2
        ? 'Cùng diện tích'
        : `${num(target.area_m2)} m² thay vì ${num(sale.area_m2)} m²`
    case 'frontage':
      return target.frontage_m === sale.frontage_m
        ? 'Cùng chiều ngang'
        : `Ngang ${num(target.frontage_m ?? 0)} m thay vì ${num(sale.frontage_m ?? 0)} m`
    case 'floors':
      return target.floors === sale.floors ? 'Cùng số tầng' : `${target.floors ?? 0} tầng thay vì ${sale.floors ?? 0}`
    case 'time': {
      // Counted back from the date the estimate refers to (the newest sale when the data is older than
      // today), which the words name: "2 tháng trước" alone would read as before today.
      const months = Math.round(ageMonths)
      const day = asOf.split('-').reverse().join('/')
      return months < 1
        ? `Bán trong tháng của ngày ước tính ${day}`
        : `Bán ${months} tháng trước ngày ước tính ${day}, đưa về giá ngày đó`
    }
  }
}
