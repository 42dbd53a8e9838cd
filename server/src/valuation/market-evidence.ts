import { CONFIDENCE_CAP, levelOf, type ConfidenceLevel } from '#core/valuation/confidence.ts'
import { weightedQuantile, type Factor, type PropertyFacts } from './market-model.ts'

/**
 * From the adjusted comparables to the figure people see: the weighted median, a range that widens
 * when the evidence is thin or the target unlike the sales, plain warnings saying so, and a confidence
 * read off a calibration table measured on held-out sales (bench/valuation.ts) — never 1.
 */

export type AdjustedSale = {
  /** log of the adjusted price per m². */
  log: number
  /** log of the raw price per m². */
  rawLog: number
  /** Normalised weight (all sum to 1). */
  w: number
  distance_m: number
  age_months: number
  facts: PropertyFacts
  /** log effect per factor, sale → target. */
  effects: { factor: Factor; log: number }[]
}

export { LEVEL_MIN, levelOf } from '#core/valuation/confidence.ts'

/**
 * Evidence score band → the share of held-out true prices inside [low, high] that the band may state:
 * no more than every market of the ratio study keeps (`npm run bench -- --only valuation`; the shares each
 * market kept and how the bands were set: docs/performance.md, "Confidence bands"), so a market priced by
 * other rules than the demo's holds what it states too. The range widens as the evidence thins, so
 * coverage holds up where the score falls; the levels say how much evidence there is.
 */
export const CALIBRATION: readonly { minScore: number; coverage: number }[] = [
  { minScore: 0.5, coverage: 0.8 },
  { minScore: 0.2, coverage: 0.75 },
  { minScore: 0, coverage: 0.6 },
]

export function calibratedConfidence(score: number): number {
  const band = CALIBRATION.find((b) => score >= b.minScore) ?? CALIBRATION[CALIBRATION.length - 1]
  return Math.min(band?.coverage ?? 0.5, CONFIDENCE_CAP)
}

const pct = (x: number) => `${Math.round(x * 100).toLocaleString('vi-VN')} %`
const num = (x: number, d = 1) => x.toLocaleString('vi-VN', { maximumFractionDigits: d })

/** Inputs outside what the comparables cover: the adjustment is then extrapolated, not observed. */
export function farInputs(target: PropertyFacts, sales: readonly AdjustedSale[]): string[] {
  const out: string[] = []
  if (sales.length === 0) return out
  const facts = sales.map((s) => s.facts)
  const inAlley = (f: PropertyFacts) => (f.alley_width_m ?? 0) > 0
  if (inAlley(target) && !facts.some(inAlley))
    out.push('Không có giao dịch nào trong hẻm ở gần: mức giảm giá do hẻm là suy ra từ nhà mặt tiền.')
  else if (!inAlley(target) && !facts.some((f) => !inAlley(f)))
    out.push('Không có giao dịch mặt tiền nào ở gần: mức cộng thêm cho mặt tiền là suy ra từ nhà trong hẻm.')
  else if (inAlley(target)) {
    const widths = facts.filter(inAlley).map((f) => f.alley_width_m as number)
    const w = target.alley_width_m as number
    if (w < Math.min(...widths) / 1.5 || w > Math.max(...widths) * 1.5)
      out.push(
        `Hẻm ${num(w)} m khác xa độ rộng hẻm của mọi giao dịch gần đó (${num(Math.min(...widths))}–${num(Math.max(...widths))} m).`,
      )
  }
  const areas = facts.map((f) => f.area_m2)
  if (target.area_m2 < Math.min(...areas) / 2 || target.area_m2 > Math.max(...areas) * 2) {
    out.push(
      `Diện tích ${num(target.area_m2)} m² khác xa mọi giao dịch gần đó (${num(Math.min(...areas))}–${num(Math.max(...areas))} m²).`,
    )
  }
  const fronts = facts.map((f) => f.frontage_m).filter((v): v is number => v !== null && v > 0)
  if (
    target.frontage_m !== null &&
    fronts.length > 0 &&
    (target.frontage_m < Math.min(...fronts) / 1.6 || target.frontage_m > Math.max(...fronts) * 1.6)
  ) {
    out.push(
      `Mặt tiền ${num(target.frontage_m)} m khác xa mọi giao dịch gần đó (${num(Math.min(...fronts))}–${num(Math.max(...fronts))} m).`,
    )
  }
  const floors = facts.map((f) => f.floors).filter((v): v is number => v !== null)
  if (
    target.floors !== null &&
    floors.length > 0 &&
    (target.floors < Math.min(...floors) - 2 || target.floors > Math.max(...floors) + 2)
  ) {
    out.push(`${target.floors} tầng khác xa mọi giao dịch gần đó (${Math.min(...floors)}–${Math.max(...floors)} tầng).`)
  }
  // Every sale needs a large correction (time apart): the target is unlike all of them at once.
  const nearest = Math.min(
    ...sales.map((s) => s.effects.filter((e) => e.factor !== 'time').reduce((a, e) => a + Math.abs(e.log), 0)),
  )
  if (out.length === 0 && nearest > 0.4)
    out.push(
      `Thửa này khác mọi giao dịch gần đó: giao dịch giống nhất cũng phải điều chỉnh ${pct(Math.exp(nearest) - 1)}.`,
    )
  return out
}

export type Summary = {
  midLog: number
  loLog: number
  hiLog: number
  score: number
  confidence: number
  level: ConfidenceLevel
  warnings: string[]
  /** Effective number of sales, (Σw)² / Σw². */
  nEff: number
  spread: number
}

/** Each warning about thin or unlike evidence widens the range by this factor (capped at WIDEN_MAX). */
const WIDEN_PER_WARNING = 1.25
const WIDEN_MAX = 2

/** Weighted median, range, warnings and calibrated confidence of the adjusted sales (weights sum to 1). */
export function summarise(target: PropertyFacts, sales: readonly AdjustedSale[], searchRadiusM: number): Summary {
  const values = sales.map((s) => ({ v: s.log, w: s.w }))
  const midLog = weightedQuantile(values, 0.5)
  const spread = (weightedQuantile(values, 0.75) - weightedQuantile(values, 0.25)) / 1.349
  const nEff = 1 / sales.reduce((a, s) => a + s.w * s.w, 0)
  const meanDistance = sales.reduce((a, s) => a + s.w * s.distance_m, 0)
  const meanAge = sales.reduce((a, s) => a + s.w * s.age_months, 0)

  const warnings = farInputs(target, sales)
  if (sales.length < 5) warnings.push(`Chỉ có ${sales.length} giao dịch so sánh: khoảng giá rộng hơn thường lệ.`)
  if (searchRadiusM > 1200)
    warnings.push(`Giao dịch so sánh ở xa (trong bán kính ${num(searchRadiusM, 0)} m): vị trí có thể khác nhiều.`)
  if (meanAge > 15) warnings.push('Phần lớn giao dịch so sánh đã hơn một năm: giá theo thời gian là suy ra.')
  const widen = Math.min(WIDEN_MAX, WIDEN_PER_WARNING ** warnings.length)

  // The range: the 6th–94th weighted percentiles of the adjusted prices, never narrower than the spread
  // says a single sale varies (few sales put quantiles too close together), widened per warning.
  const floor = 1.3 * Math.max(spread, 0.08) * Math.sqrt(1 + 1 / nEff)
  let loLog = midLog - widen * Math.max(midLog - weightedQuantile(values, 0.06), floor)
  let hiLog = midLog + widen * Math.max(weightedQuantile(values, 0.94) - midLog, floor)

  const minAdj = Math.min(...sales.map((s) => s.log))
  const maxAdj = Math.max(...sales.map((s) => s.log))
  if (midLog < minAdj - 1e-9 || midLog > maxAdj + 1e-9) {
    warnings.push(
      'Giá ước tính nằm ngoài khoảng giá đã điều chỉnh của các giao dịch so sánh: khoảng giá đã được nới rộng để chứa chúng.',
    )
    loLog = Math.min(loLog, minAdj)
    hiLog = Math.max(hiLog, maxAdj)
  }
  const beyond = beyondRaw(midLog, sales)
  if (beyond) warnings.push(beyond)

  const count = Math.min(1, nEff / 8)
  const tight = Math.min(1, Math.max(0.1, 1 - (spread - 0.1) / 0.3))
  const near = 1 / (1 + (meanDistance / 1000) ** 2)
  const fresh = 0.5 ** (meanAge / 24)
  const score = count * tight * near * fresh * 0.8 ** (warnings.length - (beyond ? 1 : 0))
  const confidence = calibratedConfidence(score)
  return { midLog, loLog, hiLog, score, confidence, level: levelOf(confidence), warnings, nEff, spread }
}

const FACTOR_WORDS: Record<Factor, string> = {
  location: 'vị trí tuyến đường',
  alley: 'hẻm',
  area: 'diện tích',
  frontage: 'mặt tiền',
  floors: 'số tầng',
  time: 'thời gian',
}

/** The estimate below or above every raw sale is right when the target differs; say which factor moved it. */
function beyondRaw(midLog: number, sales: readonly AdjustedSale[]): string | null {
  const below = sales.every((s) => midLog < s.rawLog)
  const above = sales.every((s) => midLog > s.rawLog)
  if (!below && !above) return null
  const totals = new Map<Factor, number>()
  for (const s of sales) for (const e of s.effects) totals.set(e.factor, (totals.get(e.factor) ?? 0) + s.w * e.log)
  const main = [...totals].filter(([, v]) => (below ? v < 0 : v > 0)).sort((a, b) => Math.abs(b[1]) - Math.abs(a[1]))[0]
  const why = main
    ? `, chủ yếu do ${FACTOR_WORDS[main[0]]} (${main[1] > 0 ? '+' : '−'}${pct(Math.abs(Math.exp(main[1]) - 1))} bình quân)`
    : ''
  return `Đơn giá ước tính ${below ? 'thấp' : 'cao'} hơn mọi giao dịch gần đó trước điều chỉnh${why}.`
}
