/**
 * Việt Nam has kept UTC+07:00 without daylight saving since 1975, so the local calendar day and
 * midnight follow from a fixed offset; no time-zone database is needed on the server.
 */
const OFFSET_MS = 7 * 60 * 60 * 1000
const DAY_MS = 24 * 60 * 60 * 1000

/** The calendar day in Asia/Ho_Chi_Minh as YYYY-MM-DD. */
export function vietnamDay(at: Date): string {
  return new Date(at.getTime() + OFFSET_MS).toISOString().slice(0, 10)
}

/** The first instant of the next calendar day in Asia/Ho_Chi_Minh. */
export function nextVietnamMidnight(at: Date): Date {
  const local = at.getTime() + OFFSET_MS
  return new Date(Math.floor(local / DAY_MS) * DAY_MS + DAY_MS - OFFSET_MS)
}

/** ISO 8601 with the +07:00 offset, e.g. 2025-03-01T00:00:00.000+07:00. */
export function toVietnamIso(at: Date): string {
  return new Date(at.getTime() + OFFSET_MS).toISOString().replace('Z', '+07:00')
}

/** "00:00 ngày 02/03/2025" — how a person in Việt Nam reads a moment. */
export function formatVietnamTime(at: Date): string {
  const iso = toVietnamIso(at)
  return `${iso.slice(11, 16)} ngày ${iso.slice(8, 10)}/${iso.slice(5, 7)}/${iso.slice(0, 4)}`
}
