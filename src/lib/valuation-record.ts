import type { PlanningData, ValuationData } from '#core/contract/lookups.ts'
import type { GpsPoint } from './images/exif-gps.ts'

export const legalStatuses = {
  'so-hong': 'Sổ hồng / sổ đỏ',
  'chua-co-so': 'Chưa có sổ',
  'chua-ro': 'Chưa rõ',
} as const
export type LegalStatus = keyof typeof legalStatuses

/** The parcel being valued: a point on it and, when known, its cadastral reference. */
export type PlaceRef = {
  lat: number
  lng: number
  /** Shown to the user: the address, or "Tờ 12, thửa 34". */
  label: string
  parcelId?: string
  sheet?: number
  parcel?: number
}

/** The facts as sent (numbers) plus what only the report carries (legal status, notes). */
export type ValuationFacts = {
  area_m2: number | null
  frontage_m: number | null
  /** 0 when the parcel fronts the street. */
  alley_width_m: number | null
  floors: number | null
  legal: LegalStatus
  notes: string
}

export type RecordPhoto = {
  /** The server's upload id; null when the photo never reached the server. */
  id: string | null
  /** Small JPEG data URL, kept so the report and the history can show the photo later. */
  thumbnail: string
  width: number
  height: number
  gps: GpsPoint | null
}

/** One valuation as kept in the history and printed in the report. */
export type ValuationRecord = {
  place: PlaceRef
  facts: ValuationFacts
  data: ValuationData
  /** The planning lookup of the same parcel and when it was made; null when it could not be had. */
  planning: { data: PlanningData; at: number } | null
  photos: RecordPhoto[]
}
