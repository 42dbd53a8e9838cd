/**
 * The hidden market models behind the demo comparables. They live with the generator and nowhere else:
 * the estimator in server/src/valuation never sees these coefficients and has to recover prices from the
 * sales alone, so its accuracy on held-out sales is an honest score.
 */
export type SaleFacts = {
  /** State VT1 price of the street the parcel fronts or whose alley it sits in, đ/m². */
  vt1: number
  /** null or 0 when the parcel fronts the street. */
  alleyWidthM: number | null
  /** How far into the alley the parcel starts, m (0 on the street). */
  distanceM: number
  areaM2: number
  frontageM: number
  floors: number
  commercial: boolean
  /** Months since the start of the sales window; prices drift with time. */
  month: number
  /** Position in metres from the dataset origin, for a smooth neighbourhood effect. */
  x: number
  y: number
}

/** One market's rules: log price per m² = these terms summed, plus noise × `noise`. */
export type MarketRules = {
  /** Elasticity of price to the street's state VT1 price (1: market moves one for one with the table). */
  vt1: number
  markup: number
  alley: number
  alleyLogWidth: number
  alleyDepthPerM: number
  logArea: number
  logFrontage: number
  floors: number
  commercial: number
  month: number
  /** Amplitude and wavelengths (m, west–east and south–north) of a neighbourhood pattern the price table does not see. */
  neighbourhood: number
  wavelengthXM: number
  wavelengthYM: number
  noise: number
}

/** The demo's market: close to the typical effects the estimator starts from. */
export const DEMO_MARKET: MarketRules = {
  vt1: 1,
  markup: 1.55,
  alley: -0.8,
  alleyLogWidth: 0.26,
  alleyDepthPerM: -0.0016,
  logArea: -0.13,
  logFrontage: 0.11,
  floors: 0.035,
  commercial: 0.05,
  month: 0.0055,
  neighbourhood: 0.07,
  wavelengthXM: 650,
  wavelengthYM: 830,
  noise: 0.11,
}

/**
 * A market unlike the estimator's priors, for measuring it on data it was not shaped by: prices follow
 * the state table only loosely, alleys cost less, size and frontage matter far more, prices fall over
 * the window, neighbourhoods differ sharply over short distances, and sales are noisier.
 */
export const OTHER_MARKET: MarketRules = {
  vt1: 0.7,
  markup: 2.2 * 90e6 ** 0.3,
  alley: -0.35,
  alleyLogWidth: 0.1,
  alleyDepthPerM: -0.004,
  logArea: -0.3,
  logFrontage: 0.3,
  floors: 0.08,
  commercial: 0.2,
  month: -0.003,
  neighbourhood: 0.15,
  wavelengthXM: 300,
  wavelengthYM: 380,
  noise: 0.16,
}

export function hiddenPricePerM2(f: SaleFacts, noise: number, rules: MarketRules = DEMO_MARKET): number {
  const alley = f.alleyWidthM !== null && f.alleyWidthM > 0
  const logP =
    rules.vt1 * Math.log(f.vt1) +
    Math.log(rules.markup) +
    (alley
      ? rules.alley +
        rules.alleyLogWidth * Math.log(Math.min(f.alleyWidthM ?? 0, 8)) +
        rules.alleyDepthPerM * f.distanceM
      : 0) +
    rules.logArea * Math.log(f.areaM2 / 60) +
    rules.logFrontage * Math.log(Math.max(f.frontageM, 2) / 4.5) +
    rules.floors * f.floors +
    (f.commercial ? rules.commercial : 0) +
    rules.month * f.month +
    rules.neighbourhood * Math.sin(f.x / rules.wavelengthXM) * Math.cos(f.y / rules.wavelengthYM) +
    rules.noise * noise
  return Math.exp(logP)
}
