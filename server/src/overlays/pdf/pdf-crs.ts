import { TOWGS84 } from '#core/geo/vn2000.ts'
import type { Gdal } from '../../gdal/gdal.ts'
import { crsFromPrj, parseCrs, withEsriTowgs84 } from '../../import/crs.ts'
import { ImportError } from '../../import/errors.ts'
import type { Crs } from '../../import/types.ts'
import { overlayCrsOf, type OverlayCrs, type TypedGcp } from '../georef.ts'
import { gdalError } from '../tiler.ts'
import type { PdfGeoref } from './pdf-georef.ts'

const GEOGRAPHIC_WKT = /^\s*(GEOGCS|GEOGCRS|GEODCRS|GEOGRAPHICCRS)\s*\[/i

/** The base geographic CRS inside a projected WKT: WKT1's GEOGCS[…], or WKT2's BASEGEOGCRS[…] as a CRS of its own. */
function baseGeographicWkt(wkt: string): string | null {
  const m = /\b(GEOGCS|BASEGEOGCRS|BASEGEODCRS)\s*\[/i.exec(wkt)
  if (!m) return null
  let depth = 0
  for (let i = m.index + m[0].length - 1; i < wkt.length; i++) {
    if (wkt[i] === '[') depth++
    if (wkt[i] === ']' && --depth === 0)
      return wkt.slice(m.index, i + 1).replace(/^BASEGEOGCRS|^BASEGEODCRS/i, 'GEOGCRS')
  }
  return null
}

/**
 * The geographic CRS whose latitudes and longitudes ISO 32000's GPTS are (the datum of the sheet's own
 * CRS, not WGS84: on VN-2000 the two differ by about 200 m). For a recognised VN-2000 grid it is the
 * same ellipsoid and shift as the grid's PROJ string, so going to the grid shifts nothing.
 */
function baseOf(known: Crs | null, wkt: string): string | null {
  if (known?.kind === 'vn2000')
    return `+proj=longlat +ellps=WGS84 +towgs84=${known.towgs84?.join(',') ?? TOWGS84} +no_defs`
  return baseGeographicWkt(wkt)
}

async function transform(
  gdal: Gdal,
  points: [number, number][],
  from: string,
  to: string,
): Promise<[number, number][]> {
  const out = await gdal.gdaltransform(points, ['-s_srs', from, '-t_srs', to, '-output_xy']).catch((err: unknown) => {
    throw new ImportError(`Không đổi được tọa độ của PDF sang hệ tọa độ của nó (${gdalError(err).message})`)
  })
  const xy = out.map((c) => [c[0]!, c[1]!] as [number, number])
  if (xy.some(([x, y]) => !Number.isFinite(x) || !Number.isFinite(y)))
    throw new ImportError('Không đổi được tọa độ của PDF sang hệ tọa độ của nó')
  return xy
}

/** A control point as the GCP path takes it: VN-2000 X (northing) first, WGS84 latitude first, other systems x, y. */
function typed(crs: OverlayCrs, pixel: number, line: number, [x, y]: [number, number]): TypedGcp {
  return crs.kind === 'vn2000' || crs.kind === 'wgs84' ? { pixel, line, a: y, b: x } : { pixel, line, a: x, b: y }
}

/**
 * The PDF's georeferencing as control points on the image (width × height pixels as GDAL reads it)
 * in the PDF's CRS, for the same fit, residuals and threshold as typed control points. The CRS is a
 * recognised one (by EPSG code or WKT: VN-2000 grids, WGS84) with the importer's own parameters, or
 * the WKT handed to GDAL as the PDF gives it. Geographic systems other than WGS84 are brought to WGS84.
 */
export async function pdfControlPoints(
  gdal: Gdal,
  g: PdfGeoref,
  width: number,
  height: number,
): Promise<{ crs: OverlayCrs; gcps: TypedGcp[] }> {
  const wkt = withEsriTowgs84(g.wkt)
  if (/_using_towgs84_/i.test(wkt))
    throw new ImportError('Không đọc được tham số chuyển đổi datum trong hệ tọa độ của PDF; dùng --gcp với --crs')
  const known = (g.epsg ? parseCrs(`EPSG:${g.epsg}`) : null) ?? crsFromPrj(wkt)
  const geographic = known ? known.kind === 'wgs84' : GEOGRAPHIC_WKT.test(wkt)
  let crs: OverlayCrs = known ? overlayCrsOf(known) : { kind: 'file', srs: wkt, label: 'theo tệp' }
  let xy = g.points.map((p) => [p.x, p.y] as [number, number])
  if (geographic && crs.kind !== 'wgs84') {
    xy = await transform(gdal, xy, crs.srs, 'EPSG:4326')
    crs = overlayCrsOf({ kind: 'wgs84' })
  } else if (!geographic && g.coordinates === 'geographic') {
    const base = baseOf(known, wkt)
    if (!base) throw new ImportError('Hệ tọa độ của PDF không có hệ địa lý gốc (GEOGCS); dùng --gcp với --crs')
    xy = await transform(gdal, xy, base, crs.srs)
  }
  return { crs, gcps: g.points.map((p, i) => typed(crs, p.u * width, p.v * height, xy[i]!)) }
}
