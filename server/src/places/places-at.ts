import type { FormerUnit, Place } from '#core/contract/lookups.ts'
import type { Queryable } from '../db/database.ts'
import { POINT_SQL } from '../planning/source.ts'
import { REORGANISED_ON } from './boundaries.ts'
import { unitKey } from './unit-key.ts'

/**
 * How far a point may lie outside every ward and still be given the nearest (degrees, ≈300 m): the
 * boundaries are simplified, so neighbours leave slivers between them and the coast is a few metres off.
 * The open sea stays outside.
 */
const NEAR_DEG = 0.003

/**
 * The ward of today at the point $1 lat, $2 lng (a unit of an `areas` dataset dated from 1 July 2025,
 * the newest boundary set first, the nearest within NEAR_DEG when none covers it) with its source, and
 * the names of older imported wards covering the point, which narrow `before_2025`. No row outside.
 */
export const PLACE_AT_SQL = `select a.name as ward, a.province, a.before_2025, d.name as source_name, d.data_date::text as data_date,
    (select coalesce(json_agg(o.name), '[]'::json) from admin_units o join datasets od on od.id = o.dataset_id
     where o.level = 'ward' and od.kind = 'areas' and od.data_date < date '${REORGANISED_ON}'
       and o.geom && ${POINT_SQL} and ST_Covers(o.geom, ${POINT_SQL})) as old_wards
  from admin_units a join datasets d on d.id = a.dataset_id
  where a.level = 'ward' and a.before_2025 is not null and d.kind = 'areas' and d.data_date >= date '${REORGANISED_ON}'
    and a.geom && ST_Expand(${POINT_SQL}, ${NEAR_DEG}) and ST_DWithin(a.geom, ${POINT_SQL}, ${NEAR_DEG})
  order by ST_Covers(a.geom, ${POINT_SQL}) desc, d.data_date desc, ST_Distance(a.geom, ${POINT_SQL}), a.id
  limit 1`

export type PlaceRow = {
  ward: string
  province: string
  before_2025: FormerUnit[]
  source_name: string
  data_date: string
  old_wards: string[]
}

/** The contract's `place` from PLACE_AT_SQL's row: the former units narrowed to the old ward the point lies in when the server holds old boundaries there. */
export function toPlace(row: PlaceRow | null | undefined): Place | null {
  if (!row) return null
  const oldKeys = new Set(row.old_wards.map(unitKey))
  const narrowed = row.before_2025.filter((u) => oldKeys.has(unitKey(u.ward)))
  return {
    province: row.province,
    ward: row.ward,
    before_2025: narrowed.length > 0 ? narrowed : row.before_2025,
    source: { name: row.source_name, data_date: row.data_date },
  }
}

/** The place at a point, or null outside Việt Nam's boundaries. Not counted: it reads only the shipped boundaries. */
export async function placeAt(db: Queryable, lat: number, lng: number): Promise<Place | null> {
  const [row] = await db.query<PlaceRow>(PLACE_AT_SQL, [lat, lng], { prepare: 'place-at' })
  return toPlace(row)
}
