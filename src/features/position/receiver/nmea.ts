import GPS, { type GGA, type GGAQuality, type GST, type NMEA } from 'gps'
import { accuracyFromHdop, type Fix, type FixQuality } from '../fix.ts'

/**
 * NMEA 0183 from a GNSS receiver, read with GPS.js (the `gps` package: sentences, checksums, talker
 * IDs GP/GN/GL/GA/GB…) and folded here into the app's Fix: GGA for the position, solution type,
 * satellites, HDOP and altitude; GST for the honest accuracy (σ latitude and σ longitude); RMC and VTG
 * for speed and course; GSA for HDOP when GGA has none.
 */

/** What one line turned out to be. */
export type LineOutcome =
  | { kind: 'sentence'; sentence: NMEA }
  | { kind: 'bad-checksum' }
  /** Not NMEA, a sentence type the app does not read, or fields that do not add up. */
  | { kind: 'ignored' }

/** Reads one line; the sentence starts at its last '$', so binary bytes (RTCM, UBX) before it are skipped. */
export function parseLine(raw: string): LineOutcome {
  const start = raw.lastIndexOf('$')
  if (start < 0) return { kind: 'ignored' }
  const line = raw.slice(start).trim()
  let parsed: NMEA | false
  try {
    parsed = GPS.Parse(line)
  } catch {
    // GPS.js throws on a known sentence with the wrong number of fields (a line cut short, two run together).
    return { kind: 'ignored' }
  }
  if (!parsed) return { kind: 'ignored' }
  return parsed.valid ? { kind: 'sentence', sentence: parsed } : { kind: 'bad-checksum' }
}

/** A line longer than this without an end is noise (a binary stream at the wrong baud rate), dropped. */
const MAX_LINE = 1024

/** Turns chunks of text, split anywhere, into whole lines (CRLF or LF). */
export function createLineSplitter(onLine: (line: string) => void): (chunk: string) => void {
  let buffer = ''
  return (chunk) => {
    buffer += chunk
    let nl = buffer.indexOf('\n')
    while (nl >= 0) {
      onLine(buffer.slice(0, nl).replace(/\r$/, ''))
      buffer = buffer.slice(nl + 1)
      nl = buffer.indexOf('\n')
    }
    if (buffer.length > MAX_LINE) buffer = buffer.slice(-MAX_LINE)
  }
}

const QUALITY: Record<GGAQuality, FixQuality> = {
  fix: 'gps',
  'dgps-fix': 'dgps',
  'pps-fix': 'pps',
  rtk: 'rtk-fixed',
  'rtk-float': 'rtk-float',
  estimated: 'estimated',
  // Manual input and simulation are not positions measured here.
  manual: 'none',
  simulated: 'none',
}

export const qualityOf = (q: GGAQuality | null): FixQuality => (q === null ? 'none' : QUALITY[q])

/** A GST older than this belongs to no current fix. */
const GST_MAX_AGE_MS = 2000
/** Moving slower than this, the course a receiver reports is noise. */
const MOVING_KMH = 0.5

/** The receiver's current reading: the fix (null until a position arrives) and the solution type now. */
export type ReceiverReading = { fix: Fix | null; quality: FixQuality }

/**
 * Folds sentences into the current fix. A GST counts for the GGA of its own epoch (same UTC time), or
 * for the next one while the solution type has not changed; a solution that just changed waits for its
 * own GST and meanwhile takes HDOP × factor, so a float solution never borrows a fixed one's centimetres.
 */
export function createReceiverTracker(opts: { antennaHeightM: () => number }) {
  let gga: (GGA & { at: number }) | null = null
  let gst: (GST & { at: number }) | null = null
  let course: { speedKmh: number | null; track: number | null } = { speedKmh: null, track: null }
  let gsaHdop: number | null = null
  let reading: ReceiverReading = { fix: null, quality: 'none' }

  const sameEpoch = (a: Date | null, b: Date | null) => a !== null && b !== null && a.getTime() === b.getTime()

  function gstAccuracy(at: number, qualityChanged: boolean): number | null {
    if (!gst || !gga || gst.latitudeError === null || gst.longitudeError === null) return null
    const own = sameEpoch(gst.time, gga.time)
    if (!own && (qualityChanged || at - gst.at > GST_MAX_AGE_MS)) return null
    return Math.hypot(gst.latitudeError, gst.longitudeError)
  }

  function rebuild(at: number, qualityChanged: boolean): ReceiverReading {
    if (!gga) return reading
    const quality = qualityOf(gga.quality)
    if (gga.lat === null || gga.lon === null || quality === 'none')
      return (reading = { fix: reading.fix, quality: 'none' })
    const hdop = gga.hdop ?? gsaHdop
    const fromGst = gstAccuracy(at, qualityChanged)
    const moving = course.speedKmh !== null && course.speedKmh >= MOVING_KMH
    const fix: Fix = {
      lat: gga.lat,
      lng: gga.lon,
      accuracyM: fromGst ?? accuracyFromHdop(quality, hdop),
      accuracySource: fromGst !== null ? 'gst' : 'hdop',
      quality,
      satellites: gga.satellites,
      hdop,
      altitudeM: gga.alt === null ? null : gga.alt - opts.antennaHeightM(),
      headingDeg: moving ? course.track : null,
      speedMps: course.speedKmh === null ? null : course.speedKmh / 3.6,
      at: gga.at,
    }
    return (reading = { fix, quality })
  }

  return {
    /** Takes one sentence received at `at`; returns the new reading when it changed the fix. */
    feed(s: NMEA, at: number): ReceiverReading | null {
      switch (s.type) {
        case 'GGA': {
          const changed = gga !== null && qualityOf(gga.quality) !== qualityOf(s.quality)
          gga = { ...s, at }
          return rebuild(at, changed)
        }
        case 'GST':
          gst = { ...s, at }
          return gga && sameEpoch(s.time, gga.time) ? rebuild(gga.at, false) : null
        case 'RMC':
          if (s.status === 'active') course = { speedKmh: s.speed, track: s.track }
          return null
        case 'VTG':
          course = { speedKmh: s.speed, track: s.track }
          return null
        case 'GSA':
          gsaHdop = s.hdop
          return null
        default:
          return null
      }
    },
    reading: () => reading,
  }
}
