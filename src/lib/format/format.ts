/**
 * Numbers, money, areas, distances and dates the way Vietnamese readers write them (vi-VN: "." groups
 * thousands, "," marks decimals): `12.500.000 đ/m²`, `1.234,5 m²`, and long sums in words as people
 * say them, "12,5 tỷ" or "350 triệu".
 */

const cache = new Map<string, Intl.NumberFormat>()
function numberFormat(maxFraction: number, minFraction = 0): Intl.NumberFormat {
  const key = `${minFraction}:${maxFraction}`
  let f = cache.get(key)
  if (!f) {
    f = new Intl.NumberFormat('vi-VN', { minimumFractionDigits: minFraction, maximumFractionDigits: maxFraction })
    cache.set(key, f)
  }
  return f
}

/** A plain number in vi-VN: 1234.5 → "1.234,5". */
export function formatNumber(value: number, maxFraction = 0): string {
  return numberFormat(maxFraction).format(value)
}

/** Whole đồng: 12500000 → "12.500.000 đ". */
export function formatVnd(value: number): string {
  return `${formatNumber(Math.round(value))} đ`
}

/** Price per square metre: 12500000 → "12.500.000 đ/m²". */
export function formatVndPerM2(value: number): string {
  return `${formatNumber(Math.round(value))} đ/m²`
}

/**
 * A sum as people say it: "12,5 tỷ", "350 triệu", "1,2 triệu"; below a million the exact amount in đồng.
 * Amounts are rounded before the unit is chosen, so 999,96 triệu reads "1 tỷ", never "1.000 triệu".
 */
export function formatMoneyShort(value: number): string {
  if (!Number.isFinite(value)) return '—'
  const sign = value < 0 ? '-' : ''
  const abs = Math.abs(value)
  const billions = Math.round(abs / 1e7) / 100
  if (billions >= 1) return `${sign}${formatNumber(billions, 2)} tỷ`
  const millions = Math.round(abs / 1e5) / 10
  if (millions >= 1) {
    // Hundreds of millions need no decimal: "350 triệu", not "350,4 triệu".
    const shown = millions >= 100 ? Math.round(millions) : millions
    return shown >= 1000 ? `${sign}1 tỷ` : `${sign}${formatNumber(shown, 1)} triệu`
  }
  return `${sign}${formatVnd(abs)}`
}

/** Area: 1234.5 → "1.234,5 m²" (one decimal at most). */
export function formatArea(m2: number): string {
  return `${formatNumber(m2, 1)} m²`
}

/** A land area as a planner reads it: m² below one hectare, ha (2 decimals) from there: 6 641 590 → "664,16 ha". */
export function formatLandArea(m2: number): string {
  return m2 >= 10_000 ? `${formatNumber(m2 / 10_000, 2)} ha` : formatArea(m2)
}

/** A length in metres: 4.5 → "4,5 m". */
export function formatMeters(m: number): string {
  return `${formatNumber(m, 1)} m`
}

/** A distance: "45 m" up to a kilometre, then "1,2 km". */
export function formatDistance(m: number): string {
  return m < 1000 ? `${formatNumber(Math.round(m))} m` : `${formatNumber(m / 1000, 1)} km`
}

/** A share 0..1 as a percentage: 0.72 → "72%". */
export function formatPercent(share: number): string {
  return `${formatNumber(Math.round(share * 100))}%`
}

/** An ISO date or date-time → "dd/mm/yyyy", read as a calendar date (no time-zone shift for "2026-06-30"). */
export function formatDate(iso: string): string {
  const m = /^(\d{4})-(\d{2})-(\d{2})/.exec(iso)
  return m ? `${m[3]}/${m[2]}/${m[1]}` : iso
}

/** A moment in Việt Nam time: "14:05 23/11/2026". */
export function formatDateTime(at: Date | number | string): string {
  const d = new Date(at)
  const time = new Intl.DateTimeFormat('vi-VN', {
    timeZone: 'Asia/Ho_Chi_Minh',
    hour: '2-digit',
    minute: '2-digit',
    hour12: false,
  }).format(d)
  const date = new Intl.DateTimeFormat('vi-VN', {
    timeZone: 'Asia/Ho_Chi_Minh',
    day: '2-digit',
    month: '2-digit',
    year: 'numeric',
  }).format(d)
  return `${time} ${date}`
}

/**
 * Reads a number typed the Vietnamese way or the English way: "4,5", "4.5", "1.234,5", "1 234".
 * Returns null for empty input and NaN for text that is not a number.
 */
export function parseLocaleNumber(text: string): number | null {
  const t = text.trim().replace(/[\s\u00a0]/g, '')
  if (t === '') return null
  let normal: string
  if (t.includes(',') && t.includes('.')) {
    // Whichever comes last is the decimal mark; the other groups thousands.
    normal = t.lastIndexOf(',') > t.lastIndexOf('.') ? t.replace(/\./g, '').replace(',', '.') : t.replace(/,/g, '')
  } else if (t.includes(',')) {
    normal = /^-?\d{1,3}(,\d{3}){2,}$/.test(t) ? t.replace(/,/g, '') : t.replace(',', '.')
  } else if (/^-?\d{1,3}(\.\d{3}){2,}$/.test(t)) {
    normal = t.replace(/\./g, '')
  } else {
    normal = t
  }
  return /^-?(\d+\.?\d*|\.\d+)$/.test(normal) ? Number(normal) : Number.NaN
}

/** A VN-2000 central meridian as surveyors write it: 105.75 → "105°45′". */
export function formatMeridian(degrees: number): string {
  const whole = Math.floor(degrees)
  const minutes = Math.round((degrees - whole) * 60)
  return `${whole}°${String(minutes).padStart(2, '0')}′`
}
