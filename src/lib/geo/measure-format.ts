/** Measured lengths and areas (the measure tool); lookup results use lib/format. */
const vi = (digits: number) =>
  new Intl.NumberFormat('vi-VN', { maximumFractionDigits: digits, minimumFractionDigits: 0 })
const d0 = vi(0)
const d1 = vi(1)
const d2 = vi(2)
const d4 = vi(4)

/** "12,3 m" below a kilometre, "1,25 km" above. */
export function formatMeasureLength(m: number): string {
  if (m < 1000) return `${d1.format(m)} m`
  return `${d2.format(m / 1000)} km`
}

/** "1.234,5 m²"; from 1.000 m² also in hectares, as land is traded: "12.345 m² (1,2345 ha)". */
export function formatMeasureArea(m2: number): string {
  const sq = `${(m2 < 1000 ? d1 : d0).format(m2)} m²`
  return m2 >= 1000 ? `${sq} (${d4.format(m2 / 10_000)} ha)` : sq
}
