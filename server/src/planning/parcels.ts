import type { Parcel, ParcelRef } from '#core/contract/lookups.ts'
import { resolveProvince } from '#core/geo/provinces.ts'
import { foldVietnamese } from '#core/text/fold.ts'
import type { Queryable } from '../db/index.ts'
import { answerGeoJson, POINT_SQL } from './source.ts'

/** A parcel with the facts valuation needs besides the contract's shape. */
export type ParcelRecord = Parcel & {
  dataset_id: string
  street_id: string | null
  frontage_m: number | null
  alley_width_m: number | null
  distance_to_street_m: number | null
}

const COLUMNS = `p.id::text as id, p.sheet_no, p.parcel_no, p.area_m2::float8 as area_m2, p.address, p.ward, p.district, p.province,
  ${answerGeoJson('p.geom')} as geometry, p.dataset_id, p.street_id::text as street_id,
  p.frontage_m::float8 as frontage_m, p.alley_width_m::float8 as alley_width_m, p.distance_to_street_m::float8 as distance_to_street_m,
  coalesce((select json_agg(json_build_object('code', u.code, 'name', coalesce(c.name, u.code), 'area_m2', u.area_m2::float8) order by u.area_m2 desc, u.code)
    from parcel_land_use u left join land_use_codes c on c.code = u.code where u.parcel_id = p.id), '[]'::json) as land_use`

export function toContractParcel(r: ParcelRecord): Parcel {
  return {
    id: r.id,
    sheet_no: r.sheet_no,
    parcel_no: r.parcel_no,
    area_m2: r.area_m2,
    land_use: r.land_use,
    address: r.address,
    ward: r.ward,
    district: r.district,
    province: r.province,
    geometry: r.geometry,
  }
}

/** Metres → degrees of longitude at this latitude, generous, for a bounding-box prefilter that can use the GiST index. */
function degreesFor(metres: number, lat: number): number {
  return metres / (111_320 * Math.max(Math.cos((lat * Math.PI) / 180), 0.05))
}

/**
 * The parcel under the point, else the nearest one within 2 m (geodesic metres): $1 lat, $2 lng, $3 =
 * degreesFor(3, lat) ({@link parcelAtParams}). Where two parcel datasets overlap (a sheet surveyed
 * again), the one with the newer data date answers, then the later import.
 */
export const PARCEL_AT_SQL = `select ${COLUMNS} from parcels p join datasets pd on pd.id = p.dataset_id
     where p.geom && ST_Expand(${POINT_SQL}, $3) and ST_DWithin(p.geom::geography, ${POINT_SQL}::geography, 2)
     order by ST_Distance(p.geom::geography, ${POINT_SQL}::geography), pd.data_date desc, pd.imported_at desc, p.area_m2, p.id
     limit 1`

/** The parameters of PARCEL_AT_SQL, which the lookups sharing it put first. */
export const parcelAtParams = (lat: number, lng: number): [number, number, number] => [lat, lng, degreesFor(3, lat)]

export async function parcelById(db: Queryable, id: string): Promise<ParcelRecord | null> {
  const [row] = await db.query<ParcelRecord>(`select ${COLUMNS} from parcels p where p.id = $1::bigint`, [id])
  return row ?? null
}

/** "Phường Gia An", "P. Gia An" and "gia an" name the same ward. */
export function adminKey(name: string): string {
  return foldVietnamese(name)
    .replace(/^(thanh pho|tp\.?|tinh|phuong|p\.|xa|thi tran|dac khu)\s*/, '')
    .trim()
}
const ADMIN_KEY_SQL = (col: string) =>
  `btrim(regexp_replace(vn_fold(${col}), '^(thanh pho|tp\\.?|tinh|phuong|p\\.|xa|thi tran|dac khu)\\s*', ''))`

/**
 * Where the parcels with a sheet (tờ) and number (thửa) are, optionally narrowed by province and ward:
 * their names and a point inside each (ST_PointOnSurface, so the lookup there finds that parcel), never
 * the record itself, which only a counted lookup answers.
 */
export async function parcelsBySheet(
  db: Queryable,
  q: { sheet_no: number; parcel_no: number; province?: string; ward?: string },
): Promise<ParcelRef[]> {
  return db.query<ParcelRef>(
    `select p.id::text as id, p.sheet_no, p.parcel_no, p.address, p.ward, p.district, p.province,
       ST_Y(pt)::float8 as lat, ST_X(pt)::float8 as lng
     from parcels p cross join lateral (select ST_PointOnSurface(p.geom) as pt) inside
     where p.sheet_no = $1 and p.parcel_no = $2
       and ($3::text is null or ${ADMIN_KEY_SQL('p.province')} = $3)
       and ($4::text is null or ${ADMIN_KEY_SQL('p.ward')} = $4)
     order by p.province, p.ward, p.id limit 50`,
    // "TP.HCM" or "HCM" names the province stored as "Thành phố Hồ Chí Minh".
    [
      q.sheet_no,
      q.parcel_no,
      q.province ? adminKey(resolveProvince(q.province)?.name ?? q.province) : null,
      q.ward ? adminKey(q.ward) : null,
    ],
  )
}
