import { placeParcels } from '../../places/place-parcels.ts'
import { gdalVectorFormats } from '../types.ts'
import type { Geometry } from 'geojson'
import { RowError } from '../errors.ts'
import { prepareGeometry, toWkt } from '../geometry.ts'
import { number, provinceName, requireValue, text } from '../values.ts'
import {
  fixedPolygonsCte,
  polygonResultSelect,
  srcCte,
  toBatchResult,
  unnestFrom,
  type Column,
  type Kind,
  type PolygonResultRow,
} from './kind.ts'

type LandUse = { code: string; area: number | null }
type Row = {
  n: number
  geometry: Geometry
  sheetNo: number
  parcelNo: number
  area: number | null
  landUse: LandUse[]
  address: string
  ward: string
  district: string
  province: string
  frontage: number | null
  alley: number | null
  distance: number | null
}

/**
 * A parcel's land-use purposes as cadastral files write them: `ODT`, `ODT:100;CLN:52,5`,
 * `ODT(100)/CLN(52.5)`, and mixed use `ODT+CLN` with no area for each part. A single code without an
 * area gets the rest of the parcel; two or more without one keep their area unknown (null): the split
 * is not in the file, and the parcel's own area stays.
 */
export function parseLandUse(v: string): LandUse[] {
  const parts = v.split(/\s*(?:[+;/]|,(?!\d))\s*/).filter((p) => p !== '')
  const out: LandUse[] = []
  for (const part of parts) {
    const m = /^([A-Za-z]{2,4})\s*(?:[:=(]\s*([\d.,]+)\s*(?:m2|m²)?\s*\)?)?$/.exec(part)
    if (!m?.[1]) throw new RowError(`loại đất không hợp lệ: ${JSON.stringify(part)}`)
    const code = m[1].toUpperCase()
    if (out.some((u) => u.code === code)) throw new RowError(`loại đất ${code} lặp lại`)
    out.push({ code, area: m[2] === undefined ? null : number(m[2], `diện tích loại đất ${code}`, { min: 0 }) })
  }
  return out
}

export const parcels: Kind = {
  formats: ['geojson', 'shapefile', ...gdalVectorFormats],
  geometryTables: ['parcels'],
  // Parcels without a province get it from where they lie; the streets and wards the addresses name
  // become searchable with the parcels (migration 013).
  async finish(tx, datasetId) {
    await placeParcels(tx, datasetId)
    await tx.query('select fill_parcel_places($1)', [datasetId])
  },
  fields: {
    // ViLIS, VBDLIS and FAMIS exports name columns like this, cut to 10 characters by a .dbf
    // (SoHieuToBa, SoThuTuThu, KyHieuMucD), which the field reader also recognises.
    sheet_no: {
      columns: ['so_to', 'sheet_no', 'SHBANDO', 'to_ban_do', 'to_bd', 'SoHieuToBanDo', 'so_hieu_to'],
      label: 'số tờ (sheet_no)',
      required: true,
    },
    parcel_no: {
      columns: ['so_thua', 'parcel_no', 'SHTHUA', 'thua', 'SoThuTuThua', 'so_thu_tu_thua'],
      label: 'số thửa (parcel_no)',
      required: true,
    },
    area_m2: { columns: ['dien_tich', 'area_m2', 'area', 'DIENTICH', 'dt'], label: 'diện tích (area_m2)' },
    land_use: {
      columns: [
        'loai_dat',
        'land_use',
        'KHLOAIDAT',
        'mdsd',
        'muc_dich',
        'KyHieuMucDichSuDung',
        'MucDichSuDung',
        'kh_mdsd',
      ],
      label: 'loại đất (land_use)',
    },
    address: { columns: ['dia_chi', 'address', 'DIACHI'], label: 'địa chỉ (address)' },
    ward: {
      columns: ['phuong_xa', 'ward', 'ten_xa', 'xa', 'phuong', 'TENXA'],
      label: 'phường/xã (ward)',
      required: true,
    },
    district: { columns: ['quan_huyen', 'district', 'huyen', 'quan'], label: 'quận/huyện (district)' },
    // Not required: parcels of a file without one get it from where they lie (finish).
    province: { columns: ['tinh_tp', 'province', 'tinh', 'thanh_pho', 'TENTINH'], label: 'tỉnh/thành phố (province)' },
    // Optional facts the valuation uses for the price position (VT1–VT4) when the file has them.
    frontage_m: { columns: ['mat_tien', 'frontage_m', 'frontage'], label: 'mặt tiền m (frontage_m)' },
    alley_width_m: { columns: ['do_rong_hem', 'hem', 'alley_width_m'], label: 'độ rộng hẻm m (alley_width_m)' },
    distance_to_street_m: {
      columns: ['khoang_cach_duong', 'distance_to_street_m'],
      label: 'khoảng cách tới đường m (distance_to_street_m)',
    },
  },
  create(ctx) {
    let rows: Row[] = []
    return {
      add(rec, get) {
        const sheetNo = requireValue(number(get('sheet_no'), 'số tờ', { integer: true, min: 0 }), 'số tờ (sheet_no)')
        const parcelNo = requireValue(
          number(get('parcel_no'), 'số thửa', { integer: true, min: 0 }),
          'số thửa (parcel_no)',
        )
        const area = number(get('area_m2'), 'diện tích', { min: 0 })
        if (area === 0) throw new RowError('diện tích bằng 0')
        const landUseText = text(get('land_use'))
        const { geometry } = prepareGeometry(rec.geometry, ['polygon'], ctx.project, ctx.crs)
        rows.push({
          n: rec.n,
          geometry,
          sheetNo,
          parcelNo,
          area,
          landUse: landUseText === null ? [] : parseLandUse(landUseText),
          address: text(get('address')) ?? '',
          ward: requireValue(text(get('ward')), 'phường/xã (ward)'),
          district: text(get('district')) ?? '',
          // None in the file: found from the parcel's location once the rows are in (finish).
          province: provinceName(get('province')) ?? '',
          frontage: number(get('frontage_m'), 'mặt tiền', { min: 0 }),
          alley: number(get('alley_width_m'), 'độ rộng hẻm', { min: 0 }),
          distance: number(get('distance_to_street_m'), 'khoảng cách tới đường', { min: 0 }),
        })
      },
      pending: () => rows.length,
      drain: () => rows.splice(0),
      async flush(tx) {
        const batch = rows
        rows = []
        if (batch.length === 0) return { inserted: 0, repaired: 0, rejected: [] }
        const cols: Column[] = [
          { name: 'n', type: 'int', values: batch.map((r) => r.n) },
          { name: 'g', type: 'text', values: batch.map((r) => toWkt(r.geometry)) },
          { name: 'sheet_no', type: 'int', values: batch.map((r) => r.sheetNo) },
          { name: 'parcel_no', type: 'int', values: batch.map((r) => r.parcelNo) },
          { name: 'area', type: 'float8', values: batch.map((r) => r.area) },
          { name: 'address', type: 'text', values: batch.map((r) => r.address) },
          { name: 'ward', type: 'text', values: batch.map((r) => r.ward) },
          { name: 'district', type: 'text', values: batch.map((r) => r.district) },
          { name: 'province', type: 'text', values: batch.map((r) => r.province) },
          { name: 'frontage_m', type: 'float8', values: batch.map((r) => r.frontage) },
          { name: 'alley_width_m', type: 'float8', values: batch.map((r) => r.alley) },
          { name: 'distance_to_street_m', type: 'float8', values: batch.map((r) => r.distance) },
        ]
        // The one code without an area gets the parcel's area less the others' (`given`), known only in SQL
        // when the area is measured; with two or more without one (mixed use), each stays unknown.
        const uses = batch.flatMap((r) => {
          const given = r.landUse.reduce((sum, u) => sum + (u.area ?? 0), 0)
          const rest = r.landUse.filter((u) => u.area === null).length === 1
          return r.landUse.map((u) => ({ n: r.n, code: u.code, area: u.area, given, rest }))
        })
        const useCols: Column[] = [
          { name: 'n', type: 'int', values: uses.map((u) => u.n) },
          { name: 'code', type: 'text', values: uses.map((u) => u.code) },
          { name: 'area', type: 'float8', values: uses.map((u) => u.area) },
          { name: 'given', type: 'float8', values: uses.map((u) => u.given) },
          { name: 'rest', type: 'bool', values: uses.map((u) => u.rest) },
        ]
        // Ids are drawn up front so the land-use rows can point at their parcel in the same statement.
        const sql = `with ${srcCte(cols, 2, "nextval(pg_get_serial_sequence('parcels', 'id')) as id, ")}, ${fixedPolygonsCte},
          sized as (select id, n, coalesce(area, ST_Area(geom::geography)) as area from fixed where not unusable),
          ins as (
            insert into parcels (id, dataset_id, province, district, ward, sheet_no, parcel_no, area_m2, address,
              frontage_m, alley_width_m, distance_to_street_m, geom)
            select f.id, $1, f.province, f.district, f.ward, f.sheet_no, f.parcel_no, s.area, f.address,
              f.frontage_m, f.alley_width_m, f.distance_to_street_m, f.geom
            from fixed f join sized s on s.n = f.n
            returning 1
          ),
          lu as (
            insert into parcel_land_use (parcel_id, code, area_m2)
            select s.id, u.code, coalesce(u.area, case when u.rest then greatest(s.area - u.given, 0) end)
            from ${unnestFrom(useCols, 2 + cols.length, 'u')} join sized s on s.n = u.n
            returning 1
          )
          ${polygonResultSelect}`
        const [r] = await tx.query<PolygonResultRow>(sql, [
          ctx.datasetId,
          ...cols.map((c) => c.values),
          ...useCols.map((c) => c.values),
        ])
        return toBatchResult(r)
      },
    }
  },
}
