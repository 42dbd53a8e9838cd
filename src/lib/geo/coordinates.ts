import { fromVn2000, type Vn2000 } from '#core/geo/vn2000.ts'

export type LatLng = { lat: number; lng: number }

/** What a typed coordinate turned out to be; VN-2000 input keeps its grid values for the echo. */
export type ParsedCoordinate =
  | { ok: true; kind: 'decimal' | 'dms'; lat: number; lng: number }
  | { ok: true; kind: 'vn2000'; lat: number; lng: number; x: number; y: number; meridian: number }
  | { ok: false; error: string }

const fail = (error: string): ParsedCoordinate => ({ ok: false, error })

/**
 * One number as people type it: "10.5", "-10,5" (Vietnamese decimal comma), "1.194.784,86" or
 * "1 194 784,86" (grouped thousands). Undefined when it is not a number.
 */
export function parseNumber(token: string): number | undefined {
  const t = token.trim().replace(/\u00a0/g, ' ')
  let normal: string
  if (/^[-+]?\d{1,3}((\.\d{3}){2,}(,\d+)?|(\.\d{3})+,\d+)$/.test(t)) normal = t.replace(/\./g, '').replace(',', '.')
  else if (/^[-+]?\d{1,3}( \d{3})+([.,]\d+)?$/.test(t)) normal = t.replace(/ /g, '').replace(',', '.')
  else if (/^[-+]?\d+(,\d+)?$/.test(t)) normal = t.replace(',', '.')
  else if (/^[-+]?(\d+\.?\d*|\.\d+)$/.test(t)) normal = t
  else return undefined
  const n = Number(normal)
  return Number.isFinite(n) ? n : undefined
}

/** Unicode primes, curly quotes and ordinal signs as plain ' and " and °. */
function normaliseSymbols(text: string): string {
  return text
    .normalize('NFC')
    .replace(/[′’‘ʹ`´]/g, "'")
    .replace(/[″”“ʺ]|''/g, '"')
    .replace(/[º˚]/g, '°')
    .trim()
}

// Hemisphere letters: English N/S/E/W and Vietnamese B (Bắc), Đ (Đông), T (Tây). "N" is read as north,
// as on every English-labelled map, since Việt Nam lies wholly in the northern hemisphere.
const HEMI = '[NSEWBĐDT]'
const hemiSign = (h: string | undefined): { axis: 'lat' | 'lng' | undefined; sign: 1 | -1 } => {
  switch ((h ?? '').toUpperCase()) {
    case 'N':
    case 'B':
      return { axis: 'lat', sign: 1 }
    case 'S':
      return { axis: 'lat', sign: -1 }
    case 'E':
    case 'Đ':
    case 'D':
      return { axis: 'lng', sign: 1 }
    case 'W':
    case 'T':
      return { axis: 'lng', sign: -1 }
    default:
      return { axis: undefined, sign: 1 }
  }
}

const num = String.raw`\d+(?:[.,]\d+)?`
const MINSEC = String.raw`(?:(${num})\s*(?:'|\s)\s*)?(?:(${num})\s*"?\s*)?`
// Hemisphere written after each value ("10°48′N") or before it ("N10°48′"); one style per text.
const TRAILING = new RegExp(String.raw`([-+]?${num})\s*°?\s*${MINSEC}(${HEMI})?`, 'giu')
const LEADING = new RegExp(String.raw`(${HEMI})\s*([-+]?${num})\s*°?\s*${MINSEC}`, 'giu')

function parseDmsText(text: string): ParsedCoordinate | undefined {
  const letters = text.replace(/[\d\s.,;'"°+-]/g, '')
  // Degrees with a ° sign, or hemisphere letters, mark the text as degrees-minutes-seconds.
  if (!text.includes('°') && !(letters !== '' && new RegExp(`^${HEMI}+$`, 'iu').test(letters))) return undefined
  const leading = new RegExp(`^${HEMI}`, 'iu').test(text)
  const parts: { value: number; axis: 'lat' | 'lng' | undefined }[] = []
  for (const m of text.matchAll(leading ? LEADING : TRAILING)) {
    const [hemi, degText, minText, secText] = leading ? [m[1], m[2]!, m[3], m[4]] : [m[4], m[1]!, m[2], m[3]]
    const deg = parseNumber(degText)
    const min = minText === undefined ? 0 : parseNumber(minText)
    const sec = secText === undefined ? 0 : parseNumber(secText)
    if (deg === undefined || min === undefined || sec === undefined) return fail('Không đọc được độ, phút, giây.')
    if (min >= 60 || sec >= 60) return fail('Phút và giây phải nhỏ hơn 60.')
    const { axis, sign } = hemiSign(hemi)
    const magnitude = Math.abs(deg) + min / 60 + sec / 3600
    parts.push({ value: (deg < 0 ? -1 : 1) * sign * magnitude, axis })
  }
  if (parts.length !== 2) return fail('Cần đúng hai giá trị: vĩ độ và kinh độ.')
  const [a, b] = parts as [(typeof parts)[0], (typeof parts)[0]]
  const swap = a.axis === 'lng' || b.axis === 'lat'
  return checkLatLng(swap ? b.value : a.value, swap ? a.value : b.value, 'dms')
}

function checkLatLng(lat: number, lng: number, kind: 'decimal' | 'dms'): ParsedCoordinate {
  if (Math.abs(lat) > 90) return fail('Vĩ độ phải từ -90 đến 90.')
  if (Math.abs(lng) > 180) return fail('Kinh độ phải từ -180 đến 180.')
  return { ok: true, kind, lat, lng }
}

/** Splits "a, b", "a; b", "a b" (and "a,5 b,5" with decimal commas) into number tokens. */
function numberTokens(text: string): number[] | undefined {
  const bySemicolonOrSpace = text.split(/\s*;\s*|\s+/).filter(Boolean)
  if (bySemicolonOrSpace.length === 2) {
    const ns = bySemicolonOrSpace.map((t) => parseNumber(t.replace(/,$/, '')))
    if (ns.every((n) => n !== undefined)) return ns as number[]
  }
  const byComma = text.split(/\s*,\s*/).filter(Boolean)
  if (byComma.length === 2) {
    const ns = byComma.map((t) => parseNumber(t))
    if (ns.every((n) => n !== undefined)) return ns as number[]
  }
  // "1 194 784,86  602 695,55": grouped thousands separated by a wider gap, a comma or a semicolon.
  const grouped = text.split(/\s{2,}|\s*[;,]\s+/).filter(Boolean)
  if (grouped.length === 2) {
    const ns = grouped.map((t) => parseNumber(t))
    if (ns.every((n) => n !== undefined)) return ns as number[]
  }
  return undefined
}

/** "X = 1194784.86, Y = 602695.56" (either order, any separators). */
function labelledGrid(text: string): { x: number; y: number } | undefined {
  const value = String.raw`([-+]?\d[\d.,\s]*\d|\d)`
  const x = new RegExp(String.raw`\bX\s*[:=]?\s*${value}`, 'i').exec(text)
  const y = new RegExp(String.raw`\bY\s*[:=]?\s*${value}`, 'i').exec(text)
  if (!x || !y) return undefined
  const xv = parseNumber(x[1]!.trim().replace(/[,;]$/, ''))
  const yv = parseNumber(y[1]!.trim().replace(/[,;]$/, ''))
  return xv === undefined || yv === undefined ? undefined : { x: xv, y: yv }
}

/** Plausible VN-2000 values: northing within Việt Nam's latitudes, easting within a 3° or 6° zone. */
function isGrid(x: number, y: number): boolean {
  return x > 500_000 && x < 2_800_000 && y > 0 && y < 1_000_000
}

/**
 * Reads a coordinate typed by a person: VN-2000 X/Y (X northing first, or labelled "X … Y …"; the
 * larger number is X when unlabelled), decimal degrees "lat, lng" (also with decimal commas, or
 * lng/lat when the first value cannot be a latitude), or degrees-minutes-seconds with N/S/E/W or
 * B/Đ/T. VN-2000 uses the given central meridian.
 */
export function parseCoordinate(input: string, meridian: number): ParsedCoordinate {
  const text = normaliseSymbols(input)
  if (!text) return fail('Vui lòng nhập toạ độ.')

  const grid = labelledGrid(text)
  if (grid) {
    if (!isGrid(grid.x, grid.y))
      return fail(
        'Toạ độ VN-2000 không hợp lệ: X (hướng bắc) khoảng 0,9–2,6 triệu m, Y (hướng đông) khoảng 200–800 nghìn m.',
      )
    return vn2000Result(grid.x, grid.y, meridian)
  }

  const dms = parseDmsText(text)
  if (dms) return dms

  const nums = numberTokens(text)
  if (!nums)
    return fail(
      'Không đọc được toạ độ. Ví dụ: "10.7769, 106.7009", "10°46′37″N 106°42′03″E" hoặc "X 1191740 Y 602040".',
    )
  const [a, b] = nums as [number, number]
  if (Math.abs(a) > 180 || Math.abs(b) > 180) {
    const x = Math.max(a, b)
    const y = Math.min(a, b)
    if (!isGrid(x, y))
      return fail(
        'Toạ độ VN-2000 không hợp lệ: X (hướng bắc) khoảng 0,9–2,6 triệu m, Y (hướng đông) khoảng 200–800 nghìn m.',
      )
    return vn2000Result(x, y, meridian)
  }
  // "106.7, 10.8" is longitude first; a latitude cannot exceed 90.
  if (Math.abs(a) > 90 && Math.abs(b) <= 90) return checkLatLng(b, a, 'decimal')
  return checkLatLng(a, b, 'decimal')
}

function vn2000Result(x: number, y: number, meridian: number): ParsedCoordinate {
  const { lat, lng } = fromVn2000(x, y, meridian)
  return { ok: true, kind: 'vn2000', lat, lng, x, y, meridian }
}

const trimZeros = (s: string) => (s.includes('.') ? s.replace(/\.?0+$/, '') : s)

/** "10.802628, 106.690907": the form every map app and spreadsheet reads. */
export function formatDecimal(p: LatLng, digits = 6): string {
  return `${trimZeros(p.lat.toFixed(digits))}, ${trimZeros(p.lng.toFixed(digits))}`
}

function dmsPart(value: number, pos: string, neg: string, secondDigits: number): string {
  const abs = Math.abs(value)
  let deg = Math.floor(abs)
  let min = Math.floor((abs - deg) * 60)
  let sec = Number(((abs - deg - min / 60) * 3600).toFixed(secondDigits))
  if (sec >= 60) {
    sec = 0
    min += 1
  }
  if (min >= 60) {
    min = 0
    deg += 1
  }
  const secText = sec.toFixed(secondDigits).padStart(secondDigits > 0 ? 3 + secondDigits : 2, '0')
  return `${deg}°${String(min).padStart(2, '0')}′${secText}″${value < 0 ? neg : pos}`
}

/** "10°48′09.46″N 106°41′27.27″E"; parseCoordinate reads it back. */
export function formatDms(p: LatLng, secondDigits = 2): string {
  return `${dmsPart(p.lat, 'N', 'S', secondDigits)} ${dmsPart(p.lng, 'E', 'W', secondDigits)}`
}

const metres = new Intl.NumberFormat('vi-VN', { minimumFractionDigits: 2, maximumFractionDigits: 2 })

/** VN-2000 as surveyors read it: X (northing) and Y (easting) in metres, vi-VN digits ("1.194.784,86"). */
export function formatVn2000(v: Pick<Vn2000, 'x' | 'y'>): { x: string; y: string } {
  return { x: metres.format(v.x), y: metres.format(v.y) }
}

/** 105.75 → "105°45′". */
export function formatMeridian(meridian: number): string {
  const deg = Math.floor(meridian)
  const min = Math.round((meridian - deg) * 60)
  return `${deg}°${String(min).padStart(2, '0')}′`
}
