import type {
  CompareData,
  PlanChange,
  PlanComparison,
  PlanCompareQuery,
  PlanVersion,
  ReserveChange,
} from '#core/contract/plans.ts'
import { boxAreaM2 } from '#core/geo/box.ts'
import { MAX_COMPARE_AREA_KM2, MAX_COMPARE_VERTICES } from '#core/limits.ts'
import { compareZones, planLevelRank, replacedBy } from '#core/planning/plan-levels.ts'
import type { Queryable } from '../db/index.ts'
import { InvalidInputError, NotFoundError } from '../domain-errors.ts'
import { PARCEL_AT_SQL, parcelAtParams, type ParcelRecord } from './parcels.ts'
import { answerGeoJson } from './source.ts'

/** Slivers along shared edges (rounding of coordinates) are not changes anyone could build on. */
const MIN_AREA_M2 = 0.5
const round1 = (n: number) => Math.round(n * 10) / 10

type Region = CompareData['region'] & { wkt: string }

/**
 * The compared place: the parcel at the point, or the box. The box is measured and drawn here, from the
 * very rectangle the statements query (the contract keeps it inside Việt Nam), before any of them runs.
 */
async function regionOf(db: Queryable, q: PlanCompareQuery): Promise<Region> {
  if (q.bbox) {
    const [w, s, e, n] = q.bbox as [number, number, number, number]
    const area = boxAreaM2([w, s, e, n])
    if (area > MAX_COMPARE_AREA_KM2 * 1_000_000)
      throw new InvalidInputError(
        `Khu vực quá rộng để so sánh (tối đa ${MAX_COMPARE_AREA_KM2} km²); hãy phóng to bản đồ.`,
        {
          fields: { bbox: [`Khu vực tối đa ${MAX_COMPARE_AREA_KM2} km².`] },
        },
      )
    const ring = [
      [w, s],
      [e, s],
      [e, n],
      [w, n],
      [w, s],
    ]
    return {
      kind: 'area',
      parcel: null,
      area_m2: round1(area),
      geometry: { type: 'Polygon', coordinates: [ring] },
      wkt: `POLYGON((${ring.map((p) => p.join(' ')).join(',')}))`,
    }
  }
  const [parcel] = await db.query<ParcelRecord & { wkt: string }>(
    `select p.*, (select ST_AsText(geom) from parcels where id = p.id::bigint) as wkt from (${PARCEL_AT_SQL}) p`,
    parcelAtParams(q.lat!, q.lng!),
  )
  if (!parcel) throw new NotFoundError('Không có thửa đất tại điểm này; hãy so sánh theo khu vực đang xem.')
  const { id, sheet_no, parcel_no, address, area_m2, geometry, wkt } = parcel
  return { kind: 'parcel', parcel: { id, sheet_no, parcel_no, address }, area_m2, geometry, wkt }
}

/**
 * Refuses a place whose zones and reserves hold more vertices than one comparison may clip
 * (MAX_COMPARE_VERTICES), before any clipping: the count reads each geometry's header through the index,
 * while clipping such detail took a minute on PostgreSQL and would hold the embedded database as long.
 */
async function withinVertexBudget(db: Queryable, wkt: string): Promise<void> {
  const [row] = await db.query<{ n: number }>(
    `with r as (select ST_GeomFromText($1, 4326) as g)
     select (select coalesce(sum(ST_NPoints(z.geom)), 0) from planning_zones z, r where z.geom && r.g)
       + (select coalesce(sum(ST_NPoints(x.geom)), 0) from road_reserves x, r where x.geom && r.g) as n`,
    [wkt],
  )
  if ((row?.n ?? 0) > MAX_COMPARE_VERTICES)
    throw new InvalidInputError(
      'Khu vực này có quá nhiều chi tiết quy hoạch để so sánh một lần; hãy phóng to bản đồ.',
      {
        fields: { bbox: ['Khu vực có quá nhiều chi tiết; hãy chọn khu vực nhỏ hơn.'] },
      },
    )
}

/** The plans with zones in the place, governing order, each with the area it covers and what replaced it there. */
async function plansIn(db: Queryable, wkt: string): Promise<PlanVersion[]> {
  const rows = await db.query<Omit<PlanVersion, 'replaced_by'>>(
    `with r as (select ST_GeomFromText($1, 4326) as g)
     select p.id::text as id, p.name, p.level as plan_level, p.decision_no, p.approved_at::text as approved_at,
       ST_Area(ST_Union(ST_Intersection(z.geom, r.g))::geography)::float8 as area_m2
     from r join planning_zones z on z.geom && r.g and ST_Intersects(z.geom, r.g) join plans p on p.id = z.plan_id
     group by p.id`,
    [wkt],
  )
  const plans = rows.filter((p) => p.area_m2 >= MIN_AREA_M2).map((p) => ({ ...p, area_m2: round1(p.area_m2) }))
  return replacedBy(plans.map((p) => ({ ...p, plan_name: p.name })).sort(compareZones)).map(
    ({ plan_name: _, ...p }) => p,
  )
}

/** Without a choice: the two newest versions of the most detailed level that has two. */
function defaultPair(plans: readonly PlanVersion[]): [string, string] | null {
  const byLevel = new Map<string, PlanVersion[]>()
  for (const p of plans) byLevel.set(p.plan_level, [...(byLevel.get(p.plan_level) ?? []), p])
  const level = [...byLevel.keys()]
    .sort((a, b) => planLevelRank(a) - planLevelRank(b))
    .find((l) => byLevel.get(l)!.length >= 2)
  if (level === undefined) return null
  // Governing order puts the newest first.
  const [newest, previous] = byLevel.get(level)!
  return [previous!.id, newest!.id]
}

type ChangeRow = Omit<PlanChange, 'from' | 'to'> & { from: string | null; to: string | null }

/**
 * The two plans' zones clipped to the place ($1 WKT, $2 older plan, $3 newer plan), paired where they
 * overlap; for each field, the overlaps where its value differs, grouped by the pair of values.
 */
const CHANGES_SQL = `with r as (select ST_GeomFromText($1, 4326) as g),
  a as (select z.*, ST_Intersection(z.geom, r.g) as clip from planning_zones z, r where z.plan_id = $2::bigint and z.geom && r.g and ST_Intersects(z.geom, r.g)),
  b as (select z.*, ST_Intersection(z.geom, r.g) as clip from planning_zones z, r where z.plan_id = $3::bigint and z.geom && r.g and ST_Intersects(z.geom, r.g)),
  pairs as (select a.land_use_code as a_use, b.land_use_code as b_use, a.max_density_pct as a_density, b.max_density_pct as b_density,
      a.max_floors as a_floors, b.max_floors as b_floors, a.max_far as a_far, b.max_far as b_far, ST_Intersection(a.clip, b.clip) as g
    from a join b on a.clip && b.clip and ST_Intersects(a.clip, b.clip)),
  diffs as (
    select 'land_use' as field, a_use as f, b_use as t, g from pairs where a_use is distinct from b_use
    union all select 'max_density_pct', a_density::text, b_density::text, g from pairs where a_density is distinct from b_density
    union all select 'max_floors', a_floors::text, b_floors::text, g from pairs where a_floors is distinct from b_floors
    union all select 'max_far', a_far::text, b_far::text, g from pairs where a_far is distinct from b_far)
  select d.field, d.f as "from", d.t as "to", cf.name as from_name, ct.name as to_name,
    ST_Area(ST_Union(d.g)::geography)::float8 as area_m2, ${answerGeoJson('ST_Union(d.g)')} as geometry
  from diffs d left join land_use_codes cf on d.field = 'land_use' and cf.code = d.f left join land_use_codes ct on d.field = 'land_use' and ct.code = d.t
  group by d.field, d.f, d.t, cf.name, ct.name`

/** The areas with nothing changed, and those only one plan covers. Parameters as CHANGES_SQL. */
const COVERAGE_SQL = `with r as (select ST_GeomFromText($1, 4326) as g),
  a as (select z.*, ST_Intersection(z.geom, r.g) as clip from planning_zones z, r where z.plan_id = $2::bigint and z.geom && r.g and ST_Intersects(z.geom, r.g)),
  b as (select z.*, ST_Intersection(z.geom, r.g) as clip from planning_zones z, r where z.plan_id = $3::bigint and z.geom && r.g and ST_Intersects(z.geom, r.g)),
  ua as (select coalesce(ST_Union(clip), ST_GeomFromText('POLYGON EMPTY', 4326)) as g from a),
  ub as (select coalesce(ST_Union(clip), ST_GeomFromText('POLYGON EMPTY', 4326)) as g from b)
  select
    coalesce((select ST_Area(ST_Union(ST_Intersection(a.clip, b.clip))::geography) from a join b on a.clip && b.clip and ST_Intersects(a.clip, b.clip)
      where a.land_use_code = b.land_use_code and a.max_density_pct is not distinct from b.max_density_pct
        and a.max_floors is not distinct from b.max_floors and a.max_far is not distinct from b.max_far), 0)::float8 as unchanged_m2,
    ST_Area(ST_Difference(ua.g, ub.g)::geography)::float8 as only_from_m2,
    ST_Area(ST_Difference(ub.g, ua.g)::geography)::float8 as only_to_m2,
    (select coalesce(json_agg(json_build_object('land_use_code', a.land_use_code, 'land_use_name', coalesce(c.name, a.land_use_code),
       'color', coalesce(c.color, '#cccccc'), 'geometry', ${answerGeoJson('a.clip')}) order by a.id), '[]'::json)
     from a left join land_use_codes c on c.code = a.land_use_code) as pieces_from,
    (select coalesce(json_agg(json_build_object('land_use_code', b.land_use_code, 'land_use_name', coalesce(c.name, b.land_use_code),
       'color', coalesce(c.color, '#cccccc'), 'geometry', ${answerGeoJson('b.clip')}) order by b.id), '[]'::json)
     from b left join land_use_codes c on c.code = b.land_use_code) as pieces_to
  from ua, ub`

/**
 * Road reserves of either plan in the place, by road: the width in each plan and the land each takes
 * that the other's reserves leave free. Parameters as CHANGES_SQL.
 */
const RESERVES_SQL = `with r as (select ST_GeomFromText($1, 4326) as g),
  ra as (select x.road_name, x.width_m, ST_Intersection(x.geom, r.g) as g from road_reserves x, r where x.plan_id = $2::bigint and x.geom && r.g and ST_Intersects(x.geom, r.g)),
  rb as (select x.road_name, x.width_m, ST_Intersection(x.geom, r.g) as g from road_reserves x, r where x.plan_id = $3::bigint and x.geom && r.g and ST_Intersects(x.geom, r.g)),
  ua as (select coalesce(ST_Union(g), ST_GeomFromText('POLYGON EMPTY', 4326)) as g from ra),
  ub as (select coalesce(ST_Union(g), ST_GeomFromText('POLYGON EMPTY', 4326)) as g from rb),
  fa as (select road_name, max(width_m)::float8 as width_m, ST_Area(ST_Difference(ST_Union(ra.g), (select g from ub))::geography)::float8 as removed_m2 from ra group by road_name),
  fb as (select road_name, max(width_m)::float8 as width_m, ST_Area(ST_Difference(ST_Union(rb.g), (select g from ua))::geography)::float8 as added_m2 from rb group by road_name)
  select coalesce(fa.road_name, fb.road_name) as road_name, fa.width_m as from_width_m, fb.width_m as to_width_m,
    coalesce(fb.added_m2, 0)::float8 as added_m2, coalesce(fa.removed_m2, 0)::float8 as removed_m2
  from fa full join fb on fa.road_name = fb.road_name
  order by 1`

type CoverageRow = {
  unchanged_m2: number
  only_from_m2: number
  only_to_m2: number
  pieces_from: PlanComparison['pieces']['from']
  pieces_to: PlanComparison['pieces']['to']
}

/** Numbers come back as text from the grouped union; land use stays a code. */
function toChange(r: ChangeRow): PlanChange {
  const value = (v: string | null) => (v === null || r.field === 'land_use' ? v : Number(v))
  return { ...r, from: value(r.from), to: value(r.to), area_m2: round1(r.area_m2) }
}

async function comparePlans(db: Queryable, wkt: string, from: string, to: string): Promise<PlanComparison> {
  const params = [wkt, from, to]
  const [changes, [coverage], reserves] = await Promise.all([
    db.query<ChangeRow>(CHANGES_SQL, params),
    db.query<CoverageRow>(COVERAGE_SQL, params),
    db.query<ReserveChange>(RESERVES_SQL, params),
  ])
  if (!coverage) throw new Error('the coverage query answered no row')
  const fieldOrder = ['land_use', 'max_density_pct', 'max_floors', 'max_far']
  return {
    changes: changes
      .filter((c) => c.area_m2 >= MIN_AREA_M2)
      .map(toChange)
      .sort((a, b) => fieldOrder.indexOf(a.field) - fieldOrder.indexOf(b.field) || b.area_m2 - a.area_m2),
    road_reserves: reserves
      .map((r) => ({ ...r, added_m2: round1(r.added_m2), removed_m2: round1(r.removed_m2) }))
      .filter((r) => r.from_width_m !== r.to_width_m || r.added_m2 >= MIN_AREA_M2 || r.removed_m2 >= MIN_AREA_M2),
    unchanged_m2: round1(coverage.unchanged_m2),
    only_from_m2: coverage.only_from_m2 >= MIN_AREA_M2 ? round1(coverage.only_from_m2) : 0,
    only_to_m2: coverage.only_to_m2 >= MIN_AREA_M2 ? round1(coverage.only_to_m2) : 0,
    pieces: { from: coverage.pieces_from, to: coverage.pieces_to },
  }
}

/**
 * What changed between two plan versions in a parcel or an area: per field (land use, density,
 * floors, FAR) the areas where the value changed, grouped by old → new value; the road reserves of
 * each; and the areas only one plan covers. Without `from`/`to` the two newest versions of the most
 * detailed level there are compared (none when no level has two).
 */
export async function comparePlanVersions(db: Queryable, q: PlanCompareQuery): Promise<CompareData> {
  const { wkt, ...region } = await regionOf(db, q)
  await withinVertexBudget(db, wkt)
  const plans = await plansIn(db, wkt)
  const pair: [string, string] | null = q.from && q.to ? [q.from, q.to] : defaultPair(plans)
  if (q.from && q.to) {
    const known = await db.query<{ id: string }>(`select id::text as id from plans where id = any($1::bigint[])`, [
      [q.from, q.to],
    ])
    const missing = [q.from, q.to].filter((id) => !known.some((k) => k.id === id))
    if (missing.length > 0) throw new NotFoundError(`Không có đồ án quy hoạch mã ${missing.join(', ')}.`)
  }
  return {
    region,
    plans,
    from: pair?.[0] ?? null,
    to: pair?.[1] ?? null,
    comparison: pair ? await comparePlans(db, wkt, pair[0], pair[1]) : null,
  }
}
