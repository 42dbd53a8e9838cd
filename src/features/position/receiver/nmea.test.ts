import { describe, expect, it } from 'vitest'
import { createLineSplitter, createReceiverTracker, parseLine, qualityOf } from './nmea.ts'

/*
 * Sentences recorded from real receivers, with their sources:
 * - HEMISPHERE: a Hemisphere VS100 on R/V Sally Ride, 16 Sep 2019, NOAA PSL PISTON 2019 cruise raw GPS
 *   log gps01925920_raw.txt (downloads.psl.noaa.gov, US government work, public domain).
 * - TRIMBLE_GST: Trimble R750 / R7 / R8 receiver guides, "NMEA-0183 message: GST" example.
 * - TRIMBLE_GGA: Trimble 5700/5800 and R7/R8 guides, "GGA" example (a DGPS fix with station 0031).
 * - UBLOX_GST: u-blox receiver description (as republished by ArduSimple, "NMEA GST message").
 * - NOVATEL_GST: NovAtel MiLLennium command descriptions manual, "GPGST" example.
 * - MULTI_GNSS: public logs of multi-constellation receivers with the GN talker (a DGPS fix and no fix).
 */
const HEMISPHERE = {
  gga: '$GPGGA,195959.00,1813.38282955,N,12606.12767097,E,2,07,1.4,17.2,M,36.5,M,4.0,0129*78',
  gst: '$GPGST,195959.00,0.30,0.35,0.20,292.62,0.23,0.33,0.71*62',
  vtg: '$GPVTG,262.13,T,265.08,M,1.31,N,2.43,K,D*2D',
  rmc: '$GPRMC,195959.00,A,1813.38282955,N,12606.12767097,E,1.31,262.13,160919,3.0,W,D*21',
  gsa: '$GPGSA,M,3,01,07,08,09,11,18,27,,,,,,2.7,1.4,2.4*33',
}
const TRIMBLE_GST = '$GPGST,172814.0,0.006,0.023,0.020,273.6,0.023,0.020,0.031*6A'
const TRIMBLE_GGA = '$GPGGA,172814.0,3723.46587704,N,12202.26957864,W,2,6,1.2,18.893,M,-25.669,M,2.0,0031*4F'
const UBLOX_GST = '$GPGST,082356.00,1.8,,,,1.7,1.3,2.2*7E'
const NOVATEL_GST = '$GPGST,192911.0,28.7,21.6,12.0,20.4,20.7,13.6,11.9*51'
const MULTI_GNSS = {
  gga: '$GNGGA,103309.000,4935.780351,N,00700.812390,E,2,17,0.72,465.352,M,47.791,M,,*70',
  rmc: '$GNRMC,103309.000,A,4935.780351,N,00700.812390,E,0.01,58.03,271020,,,D*41',
  noFix: '$GNGGA,170814.00,,,,,0,00,99.99,,,,,,*73',
}

/** A sentence with its checksum computed here (XOR of the characters between '$' and '*'). */
function nmea(body: string): string {
  let sum = 0
  for (const ch of body) sum ^= ch.charCodeAt(0)
  return `$${body}*${sum.toString(16).toUpperCase().padStart(2, '0')}`
}
/** The Hemisphere GGA with another talker and solution type, checksum recomputed. */
const hemisphereAs = (talker: string, quality: number) =>
  nmea(`${talker}GGA,195959.00,1813.38282955,N,12606.12767097,E,${quality},07,1.4,17.2,M,36.5,M,4.0,0129`)

const sentence = (line: string) => {
  const out = parseLine(line)
  if (out.kind !== 'sentence') throw new Error(`not read: ${line} (${out.kind})`)
  return out.sentence
}

describe('reading NMEA lines', () => {
  it('reads a recorded GGA: position in degrees, DGPS, satellites, HDOP and altitude', () => {
    const s = sentence(HEMISPHERE.gga)
    expect(s.type).toBe('GGA')
    if (s.type !== 'GGA') return
    expect(s.lat).toBeCloseTo(18 + 13.38282955 / 60, 10)
    expect(s.lon).toBeCloseTo(126 + 6.12767097 / 60, 10)
    expect(qualityOf(s.quality)).toBe('dgps')
    expect([s.satellites, s.hdop, s.alt]).toEqual([7, 1.4, 17.2])
  })

  it('reads western longitudes and the GST σ of several vendors', () => {
    const t = sentence(TRIMBLE_GGA)
    expect(t.type === 'GGA' && t.lon).toBeCloseTo(-(122 + 2.26957864 / 60), 10)
    for (const [line, lat, lon] of [
      [TRIMBLE_GST, 0.023, 0.02],
      [UBLOX_GST, 1.7, 1.3],
      [NOVATEL_GST, 20.7, 13.6],
      [HEMISPHERE.gst, 0.23, 0.33],
    ] as const) {
      const s = sentence(line)
      expect(s.type === 'GST' && [s.latitudeError, s.longitudeError]).toEqual([lat, lon])
    }
  })

  it('refuses a sentence whose checksum does not match', () => {
    expect(parseLine(HEMISPHERE.gga.replace('*78', '*79')).kind).toBe('bad-checksum')
    // One character changed in transit, checksum as sent.
    expect(parseLine(HEMISPHERE.gga.replace('1813.382', '1813.392')).kind).toBe('bad-checksum')
  })

  it('ignores partial lines, lines without a checksum and sentences it does not read', () => {
    expect(parseLine(HEMISPHERE.gga.slice(0, 40)).kind).toBe('ignored')
    expect(parseLine(HEMISPHERE.gga.slice(20)).kind).toBe('ignored')
    expect(parseLine(HEMISPHERE.gga.replace(/\*78$/, '')).kind).toBe('ignored')
    expect(parseLine(nmea('GPGGA,195959.00,1813.38282955,N'))).toEqual({ kind: 'ignored' })
    expect(parseLine('$PUBX,00,081350.00*00').kind).toBe('ignored')
    expect(parseLine('').kind).toBe('ignored')
  })

  it('finds the sentence after binary bytes on the same line', () => {
    expect(parseLine(`\u00b5b\u0001\u0007${HEMISPHERE.gga}`).kind).toBe('sentence')
  })

  it('reads every talker: GP, GN, GL, GA, GB, BD', () => {
    for (const talker of ['GP', 'GN', 'GL', 'GA', 'GB', 'BD'])
      expect(sentence(hemisphereAs(talker, 4)).type, talker).toBe('GGA')
    expect(sentence(MULTI_GNSS.gga).type).toBe('GGA')
  })

  it('names each GGA quality code', () => {
    const q = (n: number) => {
      const s = sentence(hemisphereAs('GN', n))
      return s.type === 'GGA' ? qualityOf(s.quality) : null
    }
    expect([0, 1, 2, 3, 4, 5, 6, 7, 8].map(q)).toEqual([
      'none',
      'gps',
      'dgps',
      'pps',
      'rtk-fixed',
      'rtk-float',
      'estimated',
      'none',
      'none',
    ])
  })

  it('splits a stream cut anywhere into whole lines, CRLF or LF', () => {
    const lines: string[] = []
    const feed = createLineSplitter((l) => lines.push(l))
    const stream = `${HEMISPHERE.gga}\r\n${HEMISPHERE.gst}\n${HEMISPHERE.rmc}\r\n`
    for (let i = 0; i < stream.length; i += 7) feed(stream.slice(i, i + 7))
    expect(lines).toEqual([HEMISPHERE.gga, HEMISPHERE.gst, HEMISPHERE.rmc])
  })
})

describe('the receiver fix', () => {
  const track = (antennaHeightM = 0) => createReceiverTracker({ antennaHeightM: () => antennaHeightM })
  const feedAll = (t: ReturnType<typeof track>, lines: string[], at = 1000) => {
    for (const l of lines) t.feed(sentence(l), at)
    return t.reading()
  }

  it('takes the accuracy from GST: √(σlat² + σlon²), with speed and course from RMC and VTG', () => {
    const fix = feedAll(track(), [HEMISPHERE.rmc, HEMISPHERE.vtg, HEMISPHERE.gsa, HEMISPHERE.gga, HEMISPHERE.gst]).fix!
    expect(fix.accuracySource).toBe('gst')
    expect(fix.accuracyM).toBeCloseTo(Math.hypot(0.23, 0.33), 10)
    expect(fix.quality).toBe('dgps')
    expect(fix.satellites).toBe(7)
    expect(fix.speedMps).toBeCloseTo((1.31 * 1.852) / 3.6, 6)
    expect(fix.headingDeg).toBe(262.13)
  })

  it('without GST, takes HDOP × the factor of the solution type', () => {
    const fix = feedAll(track(), [MULTI_GNSS.gga]).fix!
    expect(fix.accuracySource).toBe('hdop')
    expect(fix.accuracyM).toBeCloseTo(0.72 * 1, 10)
  })

  it('subtracts the antenna height from the altitude', () => {
    expect(feedAll(track(1.8), [HEMISPHERE.gga]).fix!.altitudeM).toBeCloseTo(17.2 - 1.8, 10)
  })

  it('does not lend a fixed solution’s GST to the float solution that follows', () => {
    const t = track()
    feedAll(t, [hemisphereAs('GN', 4), HEMISPHERE.gst])
    expect(t.reading().fix!.accuracySource).toBe('gst')
    const float = nmea('GNGGA,200000.00,1813.38282955,N,12606.12767097,E,5,07,1.4,17.2,M,36.5,M,4.0,0129')
    const fix = feedAll(t, [float], 1500).fix!
    expect(fix.quality).toBe('rtk-float')
    expect(fix.accuracySource).toBe('hdop')
    expect(fix.accuracyM).toBeCloseTo(1.4 * 0.5, 10)
  })

  it('says there is no solution when GGA has no position, keeping the last fix for the record', () => {
    const t = track()
    feedAll(t, [MULTI_GNSS.gga])
    const r = feedAll(t, [MULTI_GNSS.noFix])
    expect(r.quality).toBe('none')
    expect(r.fix!.quality).toBe('dgps')
  })
})
