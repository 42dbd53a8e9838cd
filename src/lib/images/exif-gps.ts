/**
 * Reads the GPS position a camera wrote into a photo's EXIF block (JPEG APP1, PNG eXIf, WebP EXIF).
 * Needed because re-encoding through a canvas drops all metadata: the position has to be read from
 * the original file before that, and kept beside the photo when the user asks for it.
 */

export type GpsPoint = { lat: number; lng: number }

const TAG_GPS_IFD = 0x8825
const TAG_LAT_REF = 1
const TAG_LAT = 2
const TAG_LNG_REF = 3
const TAG_LNG = 4
const TYPE_ASCII = 2
const TYPE_RATIONAL = 5

/** The TIFF structure inside the file, or null when the file carries no EXIF. */
function findTiff(bytes: Uint8Array): DataView | null {
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength)
  const ascii = (at: number, n: number) => String.fromCharCode(...bytes.subarray(at, at + n))
  const stripExifHeader = (start: number, length: number) =>
    ascii(start, 6) === 'Exif\0\0'
      ? new DataView(bytes.buffer, bytes.byteOffset + start + 6, length - 6)
      : new DataView(bytes.buffer, bytes.byteOffset + start, length)

  if (bytes.length > 4 && bytes[0] === 0xff && bytes[1] === 0xd8) {
    let at = 2
    while (at + 4 <= bytes.length && bytes[at] === 0xff) {
      const marker = bytes[at + 1]!
      // Start of scan: image data follows, no more metadata segments.
      if (marker === 0xda) return null
      const length = view.getUint16(at + 2)
      if (length < 2 || at + 2 + length > bytes.length) return null
      if (marker === 0xe1 && ascii(at + 4, 6) === 'Exif\0\0')
        return new DataView(bytes.buffer, bytes.byteOffset + at + 10, length - 8)
      at += 2 + length
    }
    return null
  }
  if (bytes.length > 8 && ascii(1, 3) === 'PNG') {
    let at = 8
    while (at + 12 <= bytes.length) {
      const length = view.getUint32(at)
      const type = ascii(at + 4, 4)
      if (at + 12 + length > bytes.length) return null
      if (type === 'eXIf') return stripExifHeader(at + 8, length)
      if (type === 'IDAT' || type === 'IEND') return null
      at += 12 + length
    }
    return null
  }
  if (bytes.length > 12 && ascii(0, 4) === 'RIFF' && ascii(8, 4) === 'WEBP') {
    let at = 12
    while (at + 8 <= bytes.length) {
      const type = ascii(at, 4)
      const length = view.getUint32(at + 4, true)
      if (at + 8 + length > bytes.length) return null
      if (type === 'EXIF') return stripExifHeader(at + 8, length)
      at += 8 + length + (length % 2)
    }
  }
  return null
}

type Entry = { type: number; count: number; valueAt: number }

function readIfd(tiff: DataView, offset: number, little: boolean): Map<number, Entry> {
  const entries = new Map<number, Entry>()
  if (offset + 2 > tiff.byteLength) return entries
  const n = tiff.getUint16(offset, little)
  for (let i = 0; i < n; i++) {
    const at = offset + 2 + i * 12
    if (at + 12 > tiff.byteLength) break
    const type = tiff.getUint16(at + 2, little)
    const count = tiff.getUint32(at + 4, little)
    const size = (type === TYPE_RATIONAL ? 8 : type === TYPE_ASCII ? 1 : 4) * count
    // Values of up to 4 bytes sit in the entry itself; longer ones at the offset it holds.
    const valueAt = size <= 4 ? at + 8 : tiff.getUint32(at + 8, little)
    entries.set(tiff.getUint16(at, little), { type, count, valueAt })
  }
  return entries
}

function degrees(tiff: DataView, e: Entry | undefined, little: boolean): number | null {
  if (!e || e.type !== TYPE_RATIONAL || e.count < 3 || e.valueAt + 24 > tiff.byteLength) return null
  const parts = [0, 1, 2].map((i) => {
    const num = tiff.getUint32(e.valueAt + i * 8, little)
    const den = tiff.getUint32(e.valueAt + i * 8 + 4, little)
    return den === 0 ? Number.NaN : num / den
  })
  const [d, m, s] = parts as [number, number, number]
  const value = d + m / 60 + s / 3600
  return Number.isFinite(value) ? value : null
}

function refLetter(tiff: DataView, e: Entry | undefined): string {
  return e && e.type === TYPE_ASCII && e.valueAt < tiff.byteLength ? String.fromCharCode(tiff.getUint8(e.valueAt)) : ''
}

/** The photo's GPS position, or null when it has none (or the block is damaged). Never throws. */
export function readExifGps(data: ArrayBuffer | Uint8Array): GpsPoint | null {
  try {
    const tiff = findTiff(data instanceof Uint8Array ? data : new Uint8Array(data))
    if (!tiff || tiff.byteLength < 8) return null
    const order = tiff.getUint16(0)
    if (order !== 0x4949 && order !== 0x4d4d) return null
    const little = order === 0x4949
    const ifd0 = readIfd(tiff, tiff.getUint32(4, little), little)
    const gpsPointer = ifd0.get(TAG_GPS_IFD)
    if (!gpsPointer) return null
    const gps = readIfd(tiff, tiff.getUint32(gpsPointer.valueAt, little), little)
    const lat = degrees(tiff, gps.get(TAG_LAT), little)
    const lng = degrees(tiff, gps.get(TAG_LNG), little)
    if (lat === null || lng === null || lat > 90 || lng > 180) return null
    return {
      lat: refLetter(tiff, gps.get(TAG_LAT_REF)) === 'S' ? -lat : lat,
      lng: refLetter(tiff, gps.get(TAG_LNG_REF)) === 'W' ? -lng : lng,
    }
  } catch {
    return null
  }
}
