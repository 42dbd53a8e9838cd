import type { PlanningData, Zone } from '#core/contract/lookups.ts'
import { orderZones } from '#core/planning/plan-levels.ts'
import type { Queryable } from '../db/index.ts'
import { NotFoundError } from '../domain-errors.ts'
import { overlaysAt } from '../overlays/store.ts'
import { parcelAt, toContractParcel, type ParcelRecord } from './parcels.ts'
import { datasetInfo, meridianOf, POINT_SQL, requireCoverage, toLocation, toSource } from './source.ts'

/** Outside every dataset → LocationIncorrect; inside but no parcel within 2 m → NotFound. */
export async function findParcelOrThrow(db: Queryable, lat: number, lng: number): Promise<ParcelRecord> {
  await requireCoverage(db, lat, lng)
  const parcel = await parcelAt(db, lat, lng)
  if (!parcel) throw new NotFoundError('Không tìm thấy thửa đất tại vị trí này.')
  return parcel
}

/** A zone with the dataset it came from, which names the source of a zones-only answer. */
export type ZoneRecord = Zone & { dataset_id: string }

/** Zones covering the point, governing plan first (core/planning/plan-levels.ts), flagged `governing`. */
export async function zonesAt(db: Queryable, lat: number, lng: number): Promise<ZoneRecord[]> {
  const rows = await db.query<Omit<ZoneRecord, 'governing'>>(
    `select z.id::text as id, pl.name as plan_name, pl.level as plan_level, pl.approved_at::text as approved_at, pl.decision_no,
       z.land_use_code, coalesce(c.name, z.land_use_code) as land_use_name, coalesce(c.color, '#cccccc') as color,
       z.max_density_pct::float8 as max_density_pct, z.max_floors::int as max_floors, z.max_far::float8 as max_far,
       ST_AsGeoJSON(z.geom, 7)::json as geometry, z.dataset_id
     from planning_zones z join plans pl on pl.id = z.plan_id left join land_use_codes c on c.code = z.land_use_code
     where z.geom && ${POINT_SQL} and ST_Covers(z.geom, ${POINT_SQL})`,
    [lat, lng],
  )
  return orderZones(rows)
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

/**
 * The parcel at the point with the zones covering it; when plans were published without a cadastre the
 * zones alone answer (`parcel: null`). NotFound only when neither is there.
 */
export async function planningLookup(db: Queryable, lat: number, lng: number): Promise<PlanningData> {
  await requireCoverage(db, lat, lng)
  const [parcel, zoneRecords, overlays] = await Promise.all([parcelAt(db, lat, lng), zonesAt(db, lat, lng), overlaysAt(db, lat, lng)])
  const sourceId = parcel?.dataset_id ?? zoneRecords[0]?.dataset_id
  if (sourceId === undefined) throw new NotFoundError('Không tìm thấy thửa đất hay ô quy hoạch nào tại vị trí này.')
  const [road_reserves, dataset] = await Promise.all([parcel ? reservesCutting(db, parcel.id) : [], datasetInfo(db, sourceId)])
  return {
    parcel: parcel ? toContractParcel(parcel) : null,
    zones: zoneRecords.map(({ dataset_id: _, ...z }) => z),
    overlays,
    road_reserves,
    location: toLocation(lat, lng, meridianOf(dataset.crs, lng, parcel?.province)),
    source: toSource(dataset),
  }
}
