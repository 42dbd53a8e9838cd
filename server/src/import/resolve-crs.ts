import { basename } from 'node:path'
import type { Province } from '#core/geo/provinces.ts'
import { formatCrs } from './crs.ts'
import { ImportError } from './errors.ts'
import type { Reader } from './readers/reader.ts'
import type { Crs } from './types.ts'

/** Where the CRS came from: --crs, the file itself, the province's meridian, WGS84 by default, or none (no coordinates). */
export type CrsFrom = 'option' | 'file' | 'province' | 'default' | 'none'

export type CrsChoice = { crs: Crs; crsFrom: CrsFrom; warnings: string[] }

const asksForCrs =
  'hãy chỉ rõ --crs vn2000:<kinh tuyến trục> (ví dụ vn2000:105.75, hoặc mã EPSG như EPSG:9210) hoặc --province "<tỉnh/thành phố>"'

/**
 * The CRS an import places its rows in, in this order: --crs; what the file declares (a .prj, a
 * GeoPackage SRS, a TAB CoordSys, a GeoJSON `crs`); for a file in metres that declares none, the
 * meridian of --province; WGS84 for a file in degrees (--province then only fills the province).
 * A file in metres with no CRS, or one declaring a CRS that is not recognised, stops with one line.
 * Kinds without coordinates (price tables) have none.
 */
export function resolveCrs(
  reader: Reader,
  opts: { crs?: Crs | undefined; province?: Province | undefined; file: string; hasCoordinates: boolean },
): CrsChoice {
  const warnings: string[] = []
  const name = basename(opts.file)
  if (!opts.hasCoordinates) return { crs: { kind: 'wgs84' }, crsFrom: 'none', warnings }
  if (opts.crs) {
    if (reader.declaredCrs && formatCrs(reader.declaredCrs) !== formatCrs(opts.crs))
      warnings.push(
        `${reader.crsSource ?? 'Tệp'} ghi ${formatCrs(reader.declaredCrs)} nhưng đã dùng ${formatCrs(opts.crs)} theo --crs`,
      )
    return { crs: opts.crs, crsFrom: 'option', warnings }
  }
  if (reader.declaredCrs) return { crs: reader.declaredCrs, crsFrom: 'file', warnings }
  // CAD drawings (DGN, DXF) carry no CRS and are never in degrees.
  const metres = reader.looksProjected === true || reader.format === 'dgn' || reader.format === 'dxf'
  const province = opts.province
  if (province && (metres || reader.looksProjected === undefined)) {
    if (province.meridiansAfterMerger.length > 1) {
      warnings.push(
        `${province.mergedInto} sau sáp nhập 2025 dùng nhiều kinh tuyến trục (${province.meridiansAfterMerger.join(', ')}); đã dùng ${province.meridian} của ${province.name}. Nếu tệp thuộc phần khác, dùng --crs vn2000:<kinh tuyến trục>`,
      )
    }
    if (reader.prj)
      warnings.push(
        `Không nhận ra hệ tọa độ trong ${reader.crsSource ?? 'tệp'}; đã dùng kinh tuyến trục của --province`,
      )
    return { crs: { kind: 'vn2000', meridian: province.meridian }, crsFrom: 'province', warnings }
  }
  // A shapefile's .prj and a GeoJSON's `crs` are refused when not recognised; a GDAL format's unknown
  // CRS only when the coordinates are not degrees, as before.
  const strict = reader.format === 'shapefile' || reader.format === 'geojson'
  if (reader.prj && (strict || reader.looksProjected !== false)) {
    throw new ImportError(
      `Không nhận ra hệ tọa độ ${reader.crsSource ? `trong ${reader.crsSource}` : 'của tệp'} (${reader.prj.slice(0, 60)}…); ${asksForCrs}`,
    )
  }
  if (reader.format === 'shapefile' && !reader.prj && !province) {
    throw new ImportError(
      `Shapefile không có tệp .prj; hãy chỉ rõ --crs EPSG:4326 cho kinh độ, vĩ độ, hoặc với tọa độ mét ${asksForCrs.replace(/^hãy chỉ rõ /, '')}`,
    )
  }
  if (metres) throw new ImportError(`${name} không ghi hệ tọa độ và có tọa độ phẳng (mét); ${asksForCrs}`)
  return { crs: { kind: 'wgs84' }, crsFrom: 'default', warnings }
}
