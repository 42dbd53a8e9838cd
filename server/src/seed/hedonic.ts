/**
 * The hidden market model behind the demo comparables. It lives with the generator and nowhere else:
 * the estimator in server/src/geo never sees these coefficients and has to recover prices from the
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
  /** Months since the start of the sales window; prices drift up with time. */
  month: number
  /** Position in metres from the dataset origin, for a smooth neighbourhood effect. */
  x: number
  y: number
}

export function hiddenPricePerM2(f: SaleFacts, noise: number): number {
  const alley = f.alleyWidthM !== null && f.alleyWidthM > 0
  const logP =
    Math.log(f.vt1) +
    Math.log(1.55) +
    (alley ? -0.8 + 0.26 * Math.log(Math.min(f.alleyWidthM ?? 0, 8)) - 0.0016 * f.distanceM : 0) -
    0.13 * Math.log(f.areaM2 / 60) +
    0.11 * Math.log(Math.max(f.frontageM, 2) / 4.5) +
    0.035 * f.floors +
    (f.commercial ? 0.05 : 0) +
    0.0055 * f.month +
    0.07 * Math.sin(f.x / 650) * Math.cos(f.y / 830) +
    0.11 * noise
  return Math.exp(logP)
}
