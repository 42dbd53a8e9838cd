import { formatNumber } from '../../lib/format/format.ts'

/**
 * What kind of solution a position is: a receiver's GGA quality (0 none, 1 GPS, 2 DGPS, 3 PPS, 4 RTK
 * fixed, 5 RTK float, 6 dead reckoning), or the phone's own location, which says nothing about it.
 */
export type FixQuality = 'none' | 'gps' | 'dgps' | 'pps' | 'rtk-fixed' | 'rtk-float' | 'estimated' | 'phone'

/** Where an accuracy figure came from: the receiver's GST σ, HDOP × a factor, or the phone's own estimate. */
export type AccuracySource = 'gst' | 'hdop' | 'device'

/** One position from whichever source feeds the app, as every screen reads it. */
export type Fix = {
  lat: number
  lng: number
  /** Horizontal accuracy in metres (1σ radius, √(σlat² + σlon²) from GST); null when the source gave none. */
  accuracyM: number | null
  accuracySource: AccuracySource
  quality: FixQuality
  satellites: number | null
  hdop: number | null
  /** Height of the ground point above mean sea level (the antenna's altitude less the typed antenna height). */
  altitudeM: number | null
  /** Degrees from north while moving, else null. */
  headingDeg: number | null
  speedMps: number | null
  /** When the device received it (ms since epoch, the device's clock: the age shown is measured against it). */
  at: number
}

/** The readout's words for each solution type. */
export const QUALITY_WORDS: Record<FixQuality, string> = {
  'rtk-fixed': 'RTK cố định',
  'rtk-float': 'RTK thả nổi',
  dgps: 'DGPS',
  gps: 'GPS đơn',
  pps: 'GPS (PPS)',
  estimated: 'Ước tính (mất vệ tinh)',
  none: 'Chưa có lời giải',
  phone: 'GPS điện thoại',
}

/** Better solutions rank higher; a drop in rank is what turns the readout red. */
export const QUALITY_RANK: Record<FixQuality, number> = {
  none: 0,
  estimated: 1,
  phone: 2,
  gps: 2,
  pps: 2,
  dgps: 3,
  'rtk-float': 4,
  'rtk-fixed': 5,
}

/**
 * Metres of horizontal error per unit of HDOP, for a receiver that sends no GST: the user-equivalent
 * range error each kind of solution typically has, taken on the pessimistic side so the figure never
 * flatters the fix (docs/field.md).
 */
export const HDOP_FACTOR_M: Record<Exclude<FixQuality, 'phone' | 'none'>, number> = {
  gps: 5,
  pps: 5,
  dgps: 1,
  'rtk-float': 0.5,
  'rtk-fixed': 0.03,
  estimated: 20,
}

/** Horizontal accuracy from HDOP when there is no GST; null when it cannot be said. */
export function accuracyFromHdop(quality: FixQuality, hdop: number | null): number | null {
  if (hdop === null || !Number.isFinite(hdop) || quality === 'none' || quality === 'phone') return null
  return hdop * HDOP_FACTOR_M[quality]
}

/**
 * A short length as a surveyor reads it: centimetres below a metre ("2 cm", never "0,02 m"), "dưới 1 cm"
 * below half a centimetre, then metres with up to two decimals ("1,24 m", "8 m"), one from 10 m, whole
 * from 100 m.
 */
export function formatPrecise(m: number): string {
  const abs = Math.abs(m)
  if (abs < 0.005) return 'dưới 1 cm'
  if (abs < 0.995) return `${Math.round(abs * 100)} cm`
  if (abs < 10) return `${formatNumber(abs, 2)} m`
  if (abs < 100) return `${formatNumber(abs, 1)} m`
  return `${formatNumber(Math.round(abs))} m`
}

/** "± 2 cm", "± 4,5 m", or "không rõ" when the source gave no accuracy. */
export function formatAccuracy(m: number | null): string {
  return m === null ? 'không rõ' : `± ${formatPrecise(m)}`
}

/** Age of a fix in whole seconds: "vừa xong", "4 giây trước", "2 phút trước". */
export function formatAge(ms: number): string {
  const s = Math.max(0, Math.floor(ms / 1000))
  if (s < 1) return 'vừa xong'
  if (s < 120) return `${s} giây trước`
  return `${Math.floor(s / 60)} phút trước`
}
