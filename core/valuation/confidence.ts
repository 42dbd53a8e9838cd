/**
 * What a market estimate's confidence means, written once for the server that states it and the app
 * that shows it: the share of held-out sales whose true price fell inside [low, high] (the server's
 * calibration table, measured by its ratio study), the level each share is called, and the cap that
 * keeps it from ever reading as certain.
 */

export type ConfidenceLevel = 'cao' | 'trung_binh' | 'thap'

/** The lowest confidence each level is called at. */
export const LEVEL_MIN: Record<ConfidenceLevel, number> = { cao: 0.8, trung_binh: 0.65, thap: 0 }

export const LEVEL_WORDS: Record<ConfidenceLevel, string> = { cao: 'Cao', trung_binh: 'Trung bình', thap: 'Thấp' }

/** No estimate is stated as certain: held-out sales fall outside any range some of the time. */
export const CONFIDENCE_CAP = 0.99

export function levelOf(confidence: number): ConfidenceLevel {
  return confidence >= LEVEL_MIN.cao ? 'cao' : confidence >= LEVEL_MIN.trung_binh ? 'trung_binh' : 'thap'
}
