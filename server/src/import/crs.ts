import { fromVn2000 } from '#core/geo/vn2000.ts'
import type { Crs } from './types.ts'

// Central meridians of VN-2000 grids all lie inside the country's longitudes.
const MERIDIAN_MIN = 102
const MERIDIAN_MAX = 118

/**
 * Reads `EPSG:4326` / `WGS84` or `vn2000:<meridian>`, the meridian in decimal degrees (105.75) or
 * degrees and minutes (105°45′, 105d45). Returns null when the text is not one of these.
 */
export function parseCrs(text: string): Crs | null {
  const t = text.trim()
  if (/^(epsg:4326|wgs84|wgs 84|crs84)$/i.test(t)) return { kind: 'wgs84' }
  const m = /^vn-?2000:(.+)$/i.exec(t)
  if (!m?.[1]) return null
  const meridian = parseMeridian(m[1].trim())
  return meridian === null ? null : { kind: 'vn2000', meridian }
}

function parseMeridian(s: string): number | null {
  let deg: number
  const dm = /^(\d{2,3})\s*(?:°|d)\s*(\d{1,2}(?:\.\d+)?)?\s*['′]?$/i.exec(s)
  if (dm?.[1]) {
    deg = Number(dm[1]) + Number(dm[2] ?? 0) / 60
  } else if (/^\d{2,3}(\.\d+)?$/.test(s)) {
    deg = Number(s)
  } else {
    return null
  }
  if (!(deg >= MERIDIAN_MIN && deg <= MERIDIAN_MAX)) return null
  return Math.round(deg * 1e6) / 1e6
}

export function formatCrs(crs: Crs): string {
  return crs.kind === 'wgs84' ? 'EPSG:4326' : `vn2000:${crs.meridian}`
}

/** The VN-2000 datum as files name it, or by its datum shift (the 7-parameter one, in either rotation convention). */
const VN2000_DATUM = /VN[_ -]?2000|Vietnam[_ ]2000|-191\.904|ID\["EPSG",\s*4756\]/i

/**
 * Recognises the systems the importer can place from a .prj, a GPKG SRS or a TAB's CoordSys (WKT1 as
 * ESRI and MapInfo write it, or WKT2 as GDAL reports it, a BOUNDCRS included): geographic WGS84, and
 * VN-2000 Transverse Mercator with the cadastral parameters (k 0.9999, false easting 500 000), named
 * (EPSG:5897…5899 "VN-2000 / TM-3") or known by its datum shift. Anything else returns null and needs
 * --crs; `unsupportedCrs` says why for the VN-2000 variants that are recognised but not placed.
 */
export function crsFromPrj(wkt: string): Crs | null {
  const text = wkt.trim().replace(/^BOUNDCRS\s*\[\s*SOURCECRS\s*\[\s*/i, '')
  const projected = /^(PROJCS|PROJCRS|PROJECTEDCRS)\s*\[/i.test(text)
  const geographic = /^(GEOGCS|GEOGCRS|GEODCRS|GEOGRAPHICCRS)\s*\[/i.test(text)
  const datumWgs84 = /DATUM\s*\[\s*"(D_)?WGS_?1984"|DATUM\s*\[\s*"World Geodetic System 1984"|ENSEMBLE\s*\[\s*"World Geodetic System 1984|ID\["EPSG",\s*4326\]\s*\]?\s*$/i.test(
    text,
  )
  if (geographic) return datumWgs84 && !VN2000_DATUM.test(text) ? { kind: 'wgs84' } : null
  if (!projected) return null
  const tm = vn2000Tm(text)
  if (!tm || Math.abs(tm.scale - 0.9999) > 1e-9) return null
  return { kind: 'vn2000', meridian: tm.meridian }
}

function vn2000Tm(text: string): { meridian: number; scale: number } | null {
  const isTm = /(PROJECTION|METHOD)\s*\[\s*"Transverse[_ ]Mercator"/i.test(text)
  if (!VN2000_DATUM.test(text) || !isTm) return null
  const params = new Map<string, number>()
  for (const p of text.matchAll(/PARAMETER\s*\[\s*"([^"]+)"\s*,\s*(-?[\d.]+(?:[eE][-+]?\d+)?)/gi)) {
    params.set(p[1]!.toLowerCase().replace(/[\s_]+/g, '_'), Number(p[2]))
  }
  const get = (...names: string[]) => names.map((n) => params.get(n)).find((v) => v !== undefined)
  const meridian = get('central_meridian', 'longitude_of_natural_origin', 'longitude_of_origin')
  const scale = get('scale_factor', 'scale_factor_at_natural_origin')
  const falseEasting = get('false_easting')
  const falseNorthing = get('false_northing') ?? 0
  const latOrigin = get('latitude_of_origin', 'latitude_of_natural_origin') ?? 0
  if (meridian === undefined || scale === undefined || falseEasting === undefined) return null
  if (falseEasting !== 500000 || falseNorthing !== 0 || latOrigin !== 0) return null
  if (!(meridian >= MERIDIAN_MIN && meridian <= MERIDIAN_MAX)) return null
  return { meridian: Math.round(meridian * 1e6) / 1e6, scale }
}

/** Why a recognised VN-2000 variant cannot be placed as it is (UTM 48N/49N, EPSG:3405/3406), for the error line; null otherwise. */
export function unsupportedCrs(wkt: string): string | null {
  const tm = vn2000Tm(wkt.trim().replace(/^BOUNDCRS\s*\[\s*SOURCECRS\s*\[\s*/i, ''))
  if (tm && Math.abs(tm.scale - 0.9996) < 1e-9) {
    return `tệp dùng VN-2000 / UTM (kinh tuyến ${tm.meridian}, k 0,9996; EPSG:3405/3406), chưa nhập trực tiếp được: chuyển sang VN-2000 TM-3 (k 0,9999), ví dụ ogr2ogr -t_srs EPSG:5897, rồi nhập lại`
  }
  return null
}

/** Turns a position in the file's CRS, GIS order (x, y), into WGS84 [lng, lat]; extra dimensions are dropped. */
export type Projector = (x: number, y: number) => [number, number]

export function projectorFor(crs: Crs): Projector {
  if (crs.kind === 'wgs84') return (x, y) => [x, y]
  const meridian = crs.meridian
  // GIS files store (easting, northing); fromVn2000 takes the Vietnamese order X = northing, Y = easting.
  return (easting, northing) => {
    const { lat, lng } = fromVn2000(northing, easting, meridian)
    return [lng, lat]
  }
}
