import proj4 from 'proj4'

/** VN-2000 → WGS84 datum shift (DOMAIN.md); published strings often have the rotation signs reversed. */
const TOWGS84 = '-191.90441429,-39.30318279,-111.45032835,0.00928836,-0.01975479,0.00427372,0.252906278'

/** Central meridians by province (DOMAIN.md), degrees. */
export const provinceMeridians: Record<string, number> = {
  'Thành phố Hà Nội': 105,
  'Thành phố Cần Thơ': 105,
  'Thành phố Hồ Chí Minh': 105.75,
  'Thành phố Hải Phòng': 105.75,
  'Bình Dương': 105.75,
  'Thành phố Đà Nẵng': 107.75,
  'Quảng Nam': 107.75,
  'Quảng Ninh': 107.75,
  'Đồng Nai': 107.75,
  'Lâm Đồng': 107.75,
  'Bà Rịa - Vũng Tàu': 107.75,
  'Khánh Hòa': 108.25,
  'Bình Phước': 106.25,
  'Đắk Nông': 108.5,
  'Bình Thuận': 108.5,
}

export const knownMeridians = [105, 105.75, 106.25, 107.75, 108.25, 108.5] as const

export function vn2000Proj(meridian: number): string {
  return `+proj=tmerc +lat_0=0 +lon_0=${meridian} +k=0.9999 +x_0=500000 +y_0=0 +ellps=WGS84 +towgs84=${TOWGS84} +units=m +no_defs`
}

const converters = new Map<number, proj4.Converter>()
function converter(meridian: number): proj4.Converter {
  let c = converters.get(meridian)
  if (!c) {
    c = proj4('EPSG:4326', vn2000Proj(meridian))
    converters.set(meridian, c)
  }
  return c
}

/** VN-2000 in the Vietnamese order: X = northing, Y = easting (metres). */
export type Vn2000 = { x: number; y: number; zone_meridian: number }

export function toVn2000(lat: number, lng: number, meridian: number): Vn2000 {
  const [easting, northing] = converter(meridian).forward([lng, lat]) as [number, number]
  return { x: northing, y: easting, zone_meridian: meridian }
}

export function fromVn2000(x: number, y: number, meridian: number): { lat: number; lng: number } {
  const [lng, lat] = converter(meridian).inverse([y, x]) as [number, number]
  return { lat, lng }
}

/** The meridian nearest the longitude, among those provinces use; a sensible default before the province is known. */
export function meridianFor(lng: number, province?: string): number {
  const byProvince = province ? provinceMeridians[province] : undefined
  if (byProvince !== undefined) return byProvince
  return knownMeridians.reduce((best, m) => (Math.abs(m - lng) < Math.abs(best - lng) ? m : best), knownMeridians[0])
}
