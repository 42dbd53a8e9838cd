import proj4 from 'proj4'
import { fromVn2000, TOWGS84 } from '#core/geo/vn2000.ts'
import type { Crs } from './types.ts'

// Central meridians of VN-2000 grids all lie inside the country's longitudes.
const MERIDIAN_MIN = 102
const MERIDIAN_MAX = 118

/**
 * The VN-2000 grids with an EPSG code (as PROJ's database defines them, checked with projinfo): the
 * TM-3 zones 5896–5899 and 9205–9218 (QGIS offers the latter by default; EPSG:9210 is TP.HCM's
 * 105°45′) and UTM 48N/49N. Provincial meridians without a code are written `vn2000:<meridian>`.
 */
const epsgVn2000: Record<string, Crs> = {
  '3405': { kind: 'vn2000', meridian: 105, scale: 0.9996 },
  '3406': { kind: 'vn2000', meridian: 111, scale: 0.9996 },
  '5896': { kind: 'vn2000', meridian: 102 },
  '5897': { kind: 'vn2000', meridian: 105 },
  '5898': { kind: 'vn2000', meridian: 108 },
  '5899': { kind: 'vn2000', meridian: 107.75 },
  ...Object.fromEntries(
    [103, 104, 104.5, 104.75, 105.5, 105.75, 106, 106.25, 106.5, 107, 107.25, 107.5, 108.25, 108.5].map(
      (meridian, i) => [String(9205 + i), { kind: 'vn2000', meridian } satisfies Crs],
    ),
  ),
}

/**
 * Reads `EPSG:4326` / `WGS84`, a VN-2000 EPSG code (EPSG:3405/3406, 5896–5899, 9205–9218) or
 * `vn2000:<meridian>`, the meridian in decimal degrees (105.75) or degrees and minutes (105°45′,
 * 105d45); also the same codes as OGC names (`urn:ogc:def:crs:EPSG::9210`, `urn:ogc:def:crs:OGC:1.3:CRS84`,
 * `http://www.opengis.net/def/crs/EPSG/0/3405`), as a GeoJSON's `crs` member writes them. Returns null
 * when the text is not one of these.
 */
export function parseCrs(text: string): Crs | null {
  const t = text
    .trim()
    .replace(/^urn:ogc:def:crs:(EPSG|OGC):[\d.]*:/i, (_, auth: string) =>
      auth.toUpperCase() === 'EPSG' ? 'EPSG:' : '',
    )
    .replace(/^https?:\/\/www\.opengis\.net\/def\/crs\/(EPSG|OGC)\/[\d.]+\//i, (_, auth: string) =>
      auth.toUpperCase() === 'EPSG' ? 'EPSG:' : '',
    )
  if (/^(epsg:4326|wgs84|wgs 84|crs84)$/i.test(t)) return { kind: 'wgs84' }
  const code = /^epsg:(\d+)$/i.exec(t)?.[1]
  if (code) return epsgVn2000[code] ?? null
  const m = /^vn-?2000:(.+)$/i.exec(t)
  if (!m?.[1]) return null
  const meridian = parseMeridian(m[1].trim())
  return meridian === null ? null : { kind: 'vn2000', meridian }
}

/**
 * A GeoJSON `crs` member (the 2008 specification; RFC 7946 dropped it, but GDAL and QGIS still write
 * it for files not in WGS84): `{ type: "name", properties: { name } }` or `{ type: "EPSG", properties:
 * { code } }`. `declared` is what the file says, for messages; `crs` is null when it is not one of ours.
 */
export function crsFromGeojsonMember(member: unknown): { declared: string; crs: Crs | null } | null {
  if (typeof member !== 'object' || member === null) return null
  const { type, properties } = member as { type?: unknown; properties?: Record<string, unknown> }
  const name =
    typeof properties?.name === 'string'
      ? properties.name
      : properties?.code !== undefined
        ? `EPSG:${String(properties.code)}`
        : null
  if (name === null) return { declared: JSON.stringify(member).slice(0, 80), crs: null }
  return { declared: name, crs: type === 'link' ? null : parseCrs(name) }
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

/**
 * How a dataset records its CRS: `EPSG:4326`, `vn2000:<meridian>` for the provincial grid, the EPSG code
 * of VN-2000 / UTM, and the file's own datum shift after the grid when it has one.
 */
export function formatCrs(crs: Crs): string {
  if (crs.kind === 'wgs84') return 'EPSG:4326'
  const utm =
    crs.scale === UTM_SCALE
      ? Object.entries(epsgVn2000).find(
          ([, c]) => c.kind === 'vn2000' && c.scale === UTM_SCALE && c.meridian === crs.meridian,
        )?.[0]
      : undefined
  const grid = utm ? `EPSG:${utm}` : `vn2000:${crs.meridian}${crs.scale === undefined ? '' : ` k=${crs.scale}`}`
  return crs.towgs84 ? `${grid} +towgs84=${crs.towgs84.join(',')}` : grid
}

const TM3_SCALE = 0.9999
const UTM_SCALE = 0.9996
const officialShift = TOWGS84.split(',').map(Number)

/** The VN-2000 datum as files name it, or by its datum shift (EPSG:6960's or EPSG:5194's, in either rotation convention). */
const VN2000_DATUM = /VN[_ -]?2000|Vietnam[_ ]2000|-191\.904|-192\.873|ID\["EPSG",\s*4756\]/i

/**
 * Recognises the systems the importer can place from a .prj, a GPKG SRS or a TAB's CoordSys (WKT1 as
 * ESRI and MapInfo write it, or WKT2 as GDAL reports it, a BOUNDCRS included): geographic WGS84, and
 * VN-2000 Transverse Mercator with false easting 500 000, named (EPSG:5897…5899 "VN-2000 / TM-3",
 * EPSG:3405/3406 "VN-2000 / UTM") or known by its datum shift: the provincial TM-3 grid (k 0.9999) and
 * UTM (k 0.9996). A file that declares its own shift (the 3-parameter one MapInfo and many offices use
 * for "VN-2000 nội bộ") is placed with that shift, as the software that made it would. Anything else
 * returns null and needs --crs.
 */
export function crsFromPrj(wkt: string): Crs | null {
  const text = withEsriTowgs84(wkt)
    .trim()
    .replace(/^BOUNDCRS\s*\[\s*SOURCECRS\s*\[\s*/i, '')
  const projected = /^(PROJCS|PROJCRS|PROJECTEDCRS)\s*\[/i.test(text)
  const geographic = /^(GEOGCS|GEOGCRS|GEODCRS|GEOGRAPHICCRS)\s*\[/i.test(text)
  const datumWgs84 =
    /DATUM\s*\[\s*"(D_)?WGS_?1984"|DATUM\s*\[\s*"World Geodetic System 1984"|ENSEMBLE\s*\[\s*"World Geodetic System 1984|ID\["EPSG",\s*4326\]\s*\]?\s*$/i.test(
      text,
    )
  if (geographic) return datumWgs84 && !VN2000_DATUM.test(text) ? { kind: 'wgs84' } : null
  if (!projected) return null
  const tm = vn2000Tm(text)
  if (!tm) return null
  const scale = [TM3_SCALE, UTM_SCALE].find((k) => Math.abs(tm.scale - k) < 1e-9)
  if (scale === undefined) return null
  const shift = declaredShift(text)
  return {
    kind: 'vn2000',
    meridian: tm.meridian,
    ...(scale === TM3_SCALE ? {} : { scale }),
    ...(shift ? { towgs84: shift } : {}),
  }
}

/**
 * GDAL writes a datum shift that ESRI's WKT has no place for into the datum's name, every '.' and ','
 * turned into '_' (`DATUM["D_Unknown_based_on_WGS_84_ellipsoid_using_towgs84_-191_90441429_-39_30318279_…"`),
 * as in the .prj of a shapefile or the WKT of a geospatial PDF it wrote, and in the WKT2 a GeoPackage
 * reports (ELLIPSOID for SPHEROID); GDAL itself does not read it back. This puts it back as TOWGS84[…] when the values can be told apart: 7 or 3 numbers, each with a
 * fraction (14 or 6 parts) or each without (7 or 3 parts). Otherwise the WKT is returned as it is.
 */
export function withEsriTowgs84(wkt: string): string {
  return wkt.replace(
    /(DATUM\s*\[\s*"[^"]*?)_using_towgs84_([-\d_]+)"(\s*,\s*(?:SPHEROID|ELLIPSOID)\s*\[[^\]]*\]\]?)/i,
    (all, name: string, mangled: string, spheroid: string) => {
      const parts = mangled.split('_').filter(Boolean)
      const paired = parts.length === 14 || parts.length === 6
      const values = paired
        ? Array.from({ length: parts.length / 2 }, (_, i) => Number(`${parts[2 * i]}.${parts[2 * i + 1]}`))
        : parts.map(Number)
      if (!(paired || parts.length === 7 || parts.length === 3) || values.some((v) => !Number.isFinite(v))) return all
      return `${name}"${spheroid},TOWGS84[${values.join(',')}]`
    },
  )
}

/**
 * The datum shift a WKT declares (TOWGS84, or the Helmert parameters of a WKT2 BOUNDCRS), when it is
 * not the official one in either rotation convention: null for the official shift and for none.
 */
function declaredShift(text: string): number[] | null {
  const towgs84 = /TOWGS84\s*\[([^\]]+)\]/i.exec(text)?.[1]
  const values = towgs84 ? towgs84.split(',').map((v) => Number(v.trim())) : wkt2Helmert(text)
  if (!values || values.some((v) => !Number.isFinite(v)) || (values.length !== 3 && values.length !== 7)) return null
  const seven = values.length === 3 ? [...values, 0, 0, 0, 0] : values
  const same = (a: number[]) => a.every((v, i) => Math.abs(v - seven[i]!) < 1e-6)
  const reversed = officialShift.map((v, i) => (i >= 3 && i <= 5 ? -v : v))
  if (same(officialShift) || same(reversed)) return null
  return seven.slice(3).every((v) => v === 0) ? values.slice(0, 3) : seven
}

/** A WKT2 BOUNDCRS's Helmert parameters in the TOWGS84 order, when it has them. */
function wkt2Helmert(text: string): number[] | null {
  if (!/ABRIDGEDTRANSFORMATION\s*\[/i.test(text)) return null
  const get = (name: string) =>
    Number(new RegExp(`PARAMETER\\s*\\[\\s*"${name}"\\s*,\\s*(-?[\\d.]+(?:[eE][-+]?\\d+)?)`, 'i').exec(text)?.[1] ?? 0)
  const t = ['X-axis translation', 'Y-axis translation', 'Z-axis translation'].map(get)
  const r = ['X-axis rotation', 'Y-axis rotation', 'Z-axis rotation'].map(get)
  const coordinateFrame = /METHOD\s*\[\s*"[^"]*Coordinate Frame/i.test(text)
  // TOWGS84 rotations are position-vector; a coordinate-frame method writes them with the other sign.
  // An abridged transformation writes the scale difference as a factor (1.000000253) unless it names ppm.
  const scale = get('Scale difference')
  const ppm = !/"Scale difference"/i.test(text)
    ? 0
    : /"Scale difference"\s*,\s*[-\d.eE+]+\s*,\s*SCALEUNIT\s*\[\s*"parts per million"/i.test(text)
      ? scale
      : (scale - 1) * 1e6
  return [...t, ...r.map((v) => (coordinateFrame ? -v : v)), Math.round(ppm * 1e9) / 1e9]
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

/** Turns a position in the file's CRS, GIS order (x, y), into WGS84 [lng, lat]; extra dimensions are dropped. */
export type Projector = (x: number, y: number) => [number, number]

export function projectorFor(crs: Crs): Projector {
  if (crs.kind === 'wgs84') return (x, y) => [x, y]
  const meridian = crs.meridian
  if (crs.scale !== undefined || crs.towgs84) {
    // The variants go through proj4 with the same model as PROJ (crs.test.ts checks them against cs2cs).
    const variant = proj4(projString(crs), 'EPSG:4326')
    return (easting, northing) => variant.forward([easting, northing]) as [number, number]
  }
  // GIS files store (easting, northing); fromVn2000 takes the Vietnamese order X = northing, Y = easting.
  return (easting, northing) => {
    const { lat, lng } = fromVn2000(northing, easting, meridian)
    return [lng, lat]
  }
}

/** The PROJ string of a VN-2000 grid: the one cs2cs, proj4 and GDAL all read. */
export function projString(crs: Extract<Crs, { kind: 'vn2000' }>): string {
  const shift = crs.towgs84?.join(',') ?? TOWGS84
  return `+proj=tmerc +lat_0=0 +lon_0=${crs.meridian} +k=${crs.scale ?? TM3_SCALE} +x_0=500000 +y_0=0 +ellps=WGS84 +towgs84=${shift} +units=m +no_defs`
}
