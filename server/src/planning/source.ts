import type { z } from 'zod'
import type { location, source } from '#core/contract/lookups.ts'
import { meridianFor } from '#core/geo/provinces.ts'
import { toVn2000 } from '#core/geo/vn2000.ts'

export type DatasetInfo = { id: string; name: string; data_date: string; crs: string }

/** The point as SQL sees it; lng first, as PostGIS wants. */
export const POINT_SQL = 'ST_SetSRID(ST_MakePoint($2::float8, $1::float8), 4326)'

export const DATASET_COLUMNS = 'id, name, data_date::text as data_date, crs'

/**
 * The datasets whose coverage holds the point $1 lat, $2 lng; none means the point is outside all data
 * (LocationIncorrect). Administrative areas (the national boundaries above all) cover the whole country
 * and hold no parcel or plan: they answer `place`, not coverage.
 */
export const COVERED_SQL = `select ${DATASET_COLUMNS} from datasets where bounds is not null and kind <> 'areas' and ST_Covers(bounds, ${POINT_SQL}) order by imported_at desc`

export function toSource(d: DatasetInfo): z.infer<typeof source> {
  return { dataset: d.id, name: d.name, data_date: d.data_date }
}

/**
 * The dataset's own VN-2000 meridian ('vn2000:105.75', with or without its own datum shift after it);
 * for other CRSs (UTM included: surveyors read the provincial grid) the province's (DOMAIN.md).
 */
export function meridianOf(crs: string, lng: number, province?: string): number {
  const m = /^vn2000:(\d+(?:\.\d+)?)(?: \+towgs84=\S+)?$/.exec(crs)
  return m ? Number(m[1]) : meridianFor(lng, province)
}

export function toLocation(lat: number, lng: number, meridian: number): z.infer<typeof location> {
  const v = toVn2000(lat, lng, meridian)
  const mm = (n: number) => Math.round(n * 1000) / 1000
  return { lat, lng, vn2000: { x: mm(v.x), y: mm(v.y), zone_meridian: v.zone_meridian } }
}
