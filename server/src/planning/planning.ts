import type { OverlayRef, PlanningData, Zone } from '#core/contract/lookups.ts'
import type { Usage } from '#core/contract/envelope.ts'
import { orderZones, replacedBy } from '#core/planning/plan-levels.ts'
import type { Deps } from '../deps.ts'
import { NotFoundError, OutsideDataError } from '../domain-errors.ts'
import { OVERLAYS_AT_SQL } from '../overlays/store.ts'
import { PLACE_AT_SQL, toPlace, type PlaceRow } from '../places/places-at.ts'
import { countedQuery } from '../usage/daily-limit.ts'
import { PARCEL_AT_SQL, parcelAtParams, toContractParcel, type ParcelRecord } from './parcels.ts'
import {
  answerGeoJson,
  COVERED_SQL,
  DATASET_COLUMNS,
  meridianOf,
  POINT_SQL,
  toLocation,
  toSource,
  type DatasetInfo,
} from './source.ts'

/** A zone with the dataset it came from, which names the source of a zones-only answer. */
export type ZoneRecord = Zone & { dataset_id: string }

/** Zones covering the point $1 lat, $2 lng (in no particular order: orderZones sorts them). */
export const ZONES_AT_SQL = `select z.id::text as id, pl.name as plan_name, pl.level as plan_level, pl.approved_at::text as approved_at, pl.decision_no,
       z.land_use_code, coalesce(c.name, z.land_use_code) as land_use_name, coalesce(c.color, '#cccccc') as color,
       z.max_density_pct::float8 as max_density_pct, z.max_floors::int as max_floors, z.max_far::float8 as max_far,
       ${answerGeoJson('z.geom')} as geometry, z.dataset_id
     from planning_zones z join plans pl on pl.id = z.plan_id left join land_use_codes c on c.code = z.land_use_code
     where z.geom && ${POINT_SQL} and ST_Covers(z.geom, ${POINT_SQL})`

/** Road reserves that take land from the parcel ("vướng quy hoạch"), with the geodesic area taken. */
const RESERVES_SQL = (
  parcelId: string,
) => `select r.road_name, r.width_m::float8 as width_m, ST_Area(ST_Intersection(r.geom, p.geom)::geography)::float8 as affected_area_m2
     from parcels p join road_reserves r on r.geom && p.geom and ST_Intersects(r.geom, p.geom)
     where p.id = ${parcelId} order by r.id`

/**
 * Everything a planning answer needs, as one row from one statement: coverage, the parcel at the point,
 * the zones and overlays covering it, the reserves cutting the parcel and the datasets that may be the
 * source. `found`: covered, and a parcel or a zone is there. Parameters: PARCEL_AT_SQL's.
 */
const PLANNING_SQL = `with parcel as (${PARCEL_AT_SQL}), zones as (${ZONES_AT_SQL}),
  a as (select exists (${COVERED_SQL}) as covered,
    (select row_to_json(p) from parcel p) as parcel,
    (select coalesce(json_agg(z), '[]'::json) from zones z) as zones,
    (select coalesce(json_agg(o), '[]'::json) from (${OVERLAYS_AT_SQL}) o) as overlays,
    (select coalesce(json_agg(r), '[]'::json) from (${RESERVES_SQL('(select id::bigint from parcel)')}) r) as road_reserves,
    (select coalesce(json_agg(d), '[]'::json) from (select ${DATASET_COLUMNS} from datasets
       where id in (select dataset_id from parcel union select dataset_id from zones)) d) as datasets,
    (select row_to_json(pl) from (${PLACE_AT_SQL}) pl) as place)
  select a.*, a.covered and (a.parcel is not null or json_array_length(a.zones) > 0) as found from a`

type PlanningRow = {
  found: boolean
  covered: boolean
  parcel: ParcelRecord | null
  zones: Omit<ZoneRecord, 'governing' | 'replaced_by'>[]
  overlays: Omit<OverlayRef, 'replaced_by'>[]
  road_reserves: PlanningData['road_reserves']
  datasets: DatasetInfo[]
  place: PlaceRow | null
}

/**
 * The parcel at the point with the zones covering it; when plans were published without a cadastre the
 * zones alone answer (`parcel: null`). LocationIncorrect outside every dataset; NotFound when neither
 * a parcel nor a zone is there.
 */
function planningAnswer(row: PlanningRow, lat: number, lng: number): PlanningData {
  if (!row.covered) throw new OutsideDataError('Vị trí nằm ngoài vùng có dữ liệu.')
  const { parcel } = row
  const zoneRecords = orderZones(row.zones)
  const sourceId = parcel?.dataset_id ?? zoneRecords[0]?.dataset_id
  if (sourceId === undefined) throw new NotFoundError('Không tìm thấy thửa đất hay ô quy hoạch nào tại vị trí này.')
  const dataset = row.datasets.find((d) => d.id === sourceId)
  if (!dataset) throw new Error(`dataset ${sourceId} vanished during a lookup`)
  return {
    parcel: parcel ? toContractParcel(parcel) : null,
    zones: replacedBy(zoneRecords).map(({ dataset_id: _, ...z }) => z),
    overlays: replacedBy(row.overlays),
    // Reserves that only touch the boundary share no area and do not affect the parcel.
    road_reserves: row.road_reserves
      .filter((r) => r.affected_area_m2 >= 0.05)
      .map((r) => ({ ...r, affected_area_m2: Math.round(r.affected_area_m2 * 10) / 10 })),
    location: toLocation(lat, lng, meridianOf(dataset.crs, lng, parcel?.province)),
    source: toSource(dataset),
    place: toPlace(row.place, parcel),
  }
}

/**
 * A planning lookup counted against the caller's daily limit: one statement in all (see countedQuery),
 * planned once per connection. Re-planned with each point's values, PostgreSQL spent more time planning it
 * than running it, and the more parcels it holds the likelier it re-plans (performance.md, round 6).
 */
export async function countedPlanningLookup(
  deps: Pick<Deps, 'db' | 'config' | 'now' | 'logger'>,
  userId: string,
  lat: number,
  lng: number,
): Promise<{ data: PlanningData; usage: Usage }> {
  const { row, usage } = await countedQuery<PlanningRow>(
    deps,
    userId,
    PLANNING_SQL,
    parcelAtParams(lat, lng),
    'planning',
    { generic: true },
  )
  const data = planningAnswer(row, lat, lng)
  if (!usage) throw new Error('a found planning answer was not counted')
  return { data, usage }
}
