import type { PlanningData, Zone } from '#core/contract/lookups.ts'
import type { Queryable } from '../db/index.ts'
import { ApiError } from '../http/errors.ts'
import { parcelAt, toContractParcel, type ParcelRecord } from './parcels.ts'
import { datasetInfo, meridianOf, POINT_SQL, requireCoverage, toLocation, toSource } from './source.ts'

/** Outside every dataset → LocationIncorrect; inside but no parcel within 2 m → NotFound. */
export async function findParcelOrThrow(db: Queryable, lat: number, lng: number): Promise<ParcelRecord> {
  await requireCoverage(db, lat, lng)
  const parcel = await parcelAt(db, lat, lng)
  if (!parcel) throw new ApiError('NotFound', 'Không tìm thấy thửa đất tại vị trí này.')
  return parcel
}

export async function zonesAt(db: Queryable, lat: number, lng: number): Promise<Zone[]> {
  return db.query<Zone>(
    `select z.id::text as id, pl.name as plan_name, pl.level as plan_level, pl.approved_at::text as approved_at, pl.decision_no,
       z.land_use_code, coalesce(c.name, z.land_use_code) as land_use_name, coalesce(c.color, '#cccccc') as color,
       z.max_density_pct::float8 as max_density_pct, z.max_floors::int as max_floors, z.max_far::float8 as max_far,
       ST_AsGeoJSON(z.geom, 7)::json as geometry
     from planning_zones z join plans pl on pl.id = z.plan_id left join land_use_codes c on c.code = z.land_use_code
     where z.geom && ${POINT_SQL} and ST_Covers(z.geom, ${POINT_SQL})
     -- The detailed 1/500 plan refines the 1/2000 one, so it is listed first.
     order by (pl.level = 'QHCT 1/500') desc, pl.approved_at desc, z.id`,
    [lat, lng],
  )
}

/** Road reserves that take land from the parcel ("vướng quy hoạch"), with the geodesic area taken. */
export async function reservesCutting(db: Queryable, parcelId: string): Promise<PlanningData['road_reserves']> {
  const rows = await db.query<{ road_name: string; width_m: number; affected_area_m2: number }>(
    `select r.road_name, r.width_m::float8 as width_m, ST_Area(ST_Intersection(r.geom, p.geom)::geography)::float8 as affected_area_m2
     from parcels p join road_reserves r on r.geom && p.geom and ST_Intersects(r.geom, p.geom)
     where p.id = $1::bigint order by r.id`,
    [parcelId],
  )
  // Reserves that only touch the boundary share no area and do not affect the parcel.
  return rows.filter((r) => r.affected_area_m2 >= 0.05).map((r) => ({ ...r, affected_area_m2: Math.round(r.affected_area_m2 * 10) / 10 }))
}

export async function planningLookup(db: Queryable, lat: number, lng: number): Promise<PlanningData> {
  const parcel = await findParcelOrThrow(db, lat, lng)
  const [zones, road_reserves, dataset] = await Promise.all([zonesAt(db, lat, lng), reservesCutting(db, parcel.id), datasetInfo(db, parcel.dataset_id)])
  return {
    parcel: toContractParcel(parcel),
    zones,
    road_reserves,
    location: toLocation(lat, lng, meridianOf(dataset.crs, lng, parcel.province)),
    source: toSource(dataset),
  }
}
