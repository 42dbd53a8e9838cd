import type { Database, Queryable } from '../db/index.ts'
import { bumpDataVersion } from '../tiles/version.ts'
import { DEMO, planDemo, type DemoTile, type PlanKey, type StreetRow } from './generate.ts'

export type LoadResult = {
  loaded: boolean
  parcels: number
  comparables: number
  zones: number
  streets: number
  ms: number
}

/** Ids are taken from the tables' own sequences first, so rows can point at each other in one pass. */
async function allocate(tx: Queryable, table: string, n: number): Promise<number[]> {
  if (n === 0) return []
  const rows = await tx.query<{ id: number }>(
    `select nextval(pg_get_serial_sequence($1, 'id'))::float8 as id from generate_series(1, $2::int)`,
    [table, n],
  )
  return rows.map((r) => r.id)
}

async function insertStreets(tx: Queryable, rows: StreetRow[], ids: Map<string, number>) {
  const allocated = await allocate(tx, 'streets', rows.length)
  const json = rows.map((s, i) => {
    const id = allocated[i] as number
    ids.set(s.key, id)
    return { id, name: s.name, class: s.class, width_m: s.width_m, ward: s.ward, wkt: s.wkt }
  })
  await tx.query(
    `insert into streets (id, dataset_id, name, class, width_m, province, ward, geom)
     select r.id, $2, r.name, r.class, r.width_m, $3, r.ward, ST_GeomFromText(r.wkt, 4326)
     from json_to_recordset($1::json) as r(id bigint, name text, class text, width_m float8, ward text, wkt text)`,
    [JSON.stringify(json), DEMO.datasetId, DEMO.province],
  )
}

const PARCEL_CHUNK = 20_000

async function insertTile(
  tx: Queryable,
  tile: DemoTile,
  streetIds: Map<string, number>,
  planIds: Record<PlanKey, number>,
) {
  const ds = DEMO.datasetId
  await insertStreets(tx, tile.alleys, streetIds)
  await tx.query(
    `insert into admin_units (dataset_id, level, name, province, geom) values ($1, 'ward', $2, $3, ST_GeomFromText($4, 4326))`,
    [ds, tile.ward.name, DEMO.province, tile.ward.wkt],
  )
  for (let start = 0; start < tile.parcels.length; start += PARCEL_CHUNK) {
    const chunk = tile.parcels.slice(start, start + PARCEL_CHUNK)
    const ids = await allocate(tx, 'parcels', chunk.length)
    const streetId = (key: string | null) => {
      if (key === null) return null
      const id = streetIds.get(key)
      if (id === undefined) throw new Error(`demo parcel points at unknown street ${key}`)
      return id
    }
    await tx.query(
      `insert into parcels (id, dataset_id, province, ward, sheet_no, parcel_no, area_m2, address, street_id, frontage_m, alley_width_m, distance_to_street_m, geom)
       select r.id, $2, $3, r.ward, r.sheet_no, r.parcel_no, r.area_m2, r.address, r.street_id, r.frontage_m, r.alley_width_m, r.distance_to_street_m, ST_GeomFromText(r.wkt, 4326)
       from json_to_recordset($1::json) as r(id bigint, ward text, sheet_no int, parcel_no int, area_m2 float8, address text, street_id bigint,
         frontage_m float8, alley_width_m float8, distance_to_street_m float8, wkt text)`,
      [
        JSON.stringify(
          chunk.map((p, i) => ({
            id: ids[i],
            ward: p.ward,
            sheet_no: p.sheet_no,
            parcel_no: p.parcel_no,
            area_m2: p.area_m2,
            address: p.address,
            street_id: streetId(p.street_key),
            frontage_m: p.frontage_m,
            alley_width_m: p.alley_width_m,
            distance_to_street_m: p.distance_to_street_m,
            wkt: p.wkt,
          })),
        ),
        ds,
        DEMO.province,
      ],
    )
    await tx.query(
      `insert into parcel_land_use (parcel_id, code, area_m2)
       select r.parcel_id, r.code, r.area_m2 from json_to_recordset($1::json) as r(parcel_id bigint, code text, area_m2 float8)`,
      [
        JSON.stringify(
          chunk.flatMap((p, i) => p.land_use.map((u) => ({ parcel_id: ids[i], code: u.code, area_m2: u.area_m2 }))),
        ),
      ],
    )
  }
  await tx.query(
    `insert into base_features (dataset_id, kind, name, subkind, geom)
     select $2, r.kind, r.name, r.subkind, ST_GeomFromText(r.wkt, 4326) from json_to_recordset($1::json) as r(kind text, name text, subkind text, wkt text)`,
    [JSON.stringify(tile.baseFeatures), ds],
  )
  await tx.query(
    `insert into planning_zones (dataset_id, plan_id, block_code, land_use_code, max_density_pct, max_floors, max_far, geom)
     select $2, r.plan_id, r.block_code, r.land_use_code, r.max_density_pct, r.max_floors, r.max_far, ST_GeomFromText(r.wkt, 4326)
     from json_to_recordset($1::json) as r(plan_id bigint, block_code text, land_use_code text, max_density_pct float8, max_floors int, max_far float8, wkt text)`,
    [JSON.stringify(tile.zones.map(({ plan, ...z }) => ({ ...z, plan_id: planIds[plan] }))), ds],
  )
  await tx.query(
    `insert into road_reserves (dataset_id, plan_id, road_name, width_m, geom)
     select $2, r.plan_id, r.road_name, r.width_m, ST_GeomFromText(r.wkt, 4326)
     from json_to_recordset($1::json) as r(plan_id bigint, road_name text, width_m float8, wkt text)`,
    [JSON.stringify(tile.reserves.map(({ plan, ...r }) => ({ ...r, plan_id: planIds[plan] }))), ds],
  )
  await tx.query(
    `insert into comparables (dataset_id, geom, observed_at, price_vnd, area_m2, frontage_m, alley_width_m, floors, kind)
     select $2, ST_GeomFromText(r.wkt, 4326), r.observed_at, r.price_vnd, r.area_m2, r.frontage_m, r.alley_width_m, r.floors, r.kind
     from json_to_recordset($1::json) as r(wkt text, observed_at date, price_vnd bigint, area_m2 float8, frontage_m float8, alley_width_m float8, floors int, kind text)`,
    [JSON.stringify(tile.comparables), ds],
  )
}

/**
 * Loads the demo dataset in one transaction: all of it or nothing. Skips when a demo dataset is already
 * there unless `reset` replaces it. An advisory lock keeps two starting servers from loading it twice.
 */
export async function loadDemo(
  db: Database,
  opts: { parcels?: number; seed?: number; reset?: boolean; onTile?: (done: number, total: number) => void } & Pick<
    Parameters<typeof planDemo>[0] & {},
    'market' | 'salesPerTile'
  > = {},
): Promise<LoadResult> {
  const t0 = performance.now()
  const plan = planDemo({
    parcels: opts.parcels,
    seed: opts.seed,
    market: opts.market,
    salesPerTile: opts.salesPerTile,
  })
  return db.transaction(async (tx) => {
    // Loaded at the server's start too, whose statement timeout is meant for requests.
    await tx.query('set local statement_timeout = 0')
    await tx.query('select pg_advisory_xact_lock(7201002)')
    const existing = await tx.query('select 1 from datasets where id = $1', [DEMO.datasetId])
    if (existing.length > 0) {
      if (!opts.reset) return { loaded: false, parcels: 0, comparables: 0, zones: 0, streets: 0, ms: 0 }
      await tx.query('delete from datasets where id = $1', [DEMO.datasetId])
    }
    await tx.query(
      `insert into datasets (id, kind, name, source, data_date, crs, is_simulated) values ($1, 'demo', $2, $3, $4, $5, true)`,
      [DEMO.datasetId, DEMO.name, DEMO.source, DEMO.dataDate, DEMO.crs],
    )
    const planIds: Record<PlanKey, number> = { qhpk: 0, qhct: 0, qhpk2017: 0 }
    for (const p of plan.plans) {
      const [row] = await tx.query<{ id: number }>(
        `insert into plans (dataset_id, name, level, decision_no, approved_at) values ($1, $2, $3, $4, $5) returning id::float8 as id`,
        [DEMO.datasetId, p.name, p.level, p.decision_no, p.approved_at],
      )
      planIds[p.key] = (row as { id: number }).id
    }
    const streetIds = new Map<string, number>()
    await insertStreets(tx, plan.streets, streetIds)
    await tx.query(
      `insert into price_rows (dataset_id, province, street_name, segment_from, segment_to, street_id, year, vt1, vt2, vt3, vt4, source)
       select $2, $3, r.street_name, r.segment_from, r.segment_to, r.street_id, $4, r.vt1, r.vt2, r.vt3, r.vt4, $5
       from json_to_recordset($1::json) as r(street_name text, segment_from text, segment_to text, street_id bigint, vt1 bigint, vt2 bigint, vt3 bigint, vt4 bigint)`,
      [
        JSON.stringify(plan.prices.map(({ street_key, ...p }) => ({ ...p, street_id: streetIds.get(street_key) }))),
        DEMO.datasetId,
        DEMO.province,
        DEMO.priceYear,
        DEMO.priceSource,
      ],
    )
    let parcels = 0
    let comparables = 0
    let zones = 0
    let streets = plan.streets.length
    for (let t = 0; t < plan.tiles; t++) {
      const tile = plan.tile(t)
      await insertTile(tx, tile, streetIds, planIds)
      parcels += tile.parcels.length
      comparables += tile.comparables.length
      zones += tile.zones.length
      streets += tile.alleys.length
      opts.onTile?.(t + 1, plan.tiles)
    }
    await tx.query(
      `insert into admin_units (dataset_id, level, name, province, geom)
       select $1, 'province', $2, $2, ST_Multi(ST_Union(geom)) from admin_units where dataset_id = $1 and level = 'ward'`,
      [DEMO.datasetId, DEMO.province],
    )
    await tx.query(
      `update datasets set bounds = (select ST_SetSRID(ST_Extent(geom)::geometry, 4326) from parcels where dataset_id = $1) where id = $1`,
      [DEMO.datasetId],
    )
    await bumpDataVersion(tx)
    // Fresh statistics, so the planner uses the trigram and spatial indexes on the new rows at once.
    await tx.exec(
      'analyze datasets, admin_units, streets, street_names, parcels, parcel_land_use, plans, planning_zones, road_reserves, base_features, price_rows, comparables',
    )
    return { loaded: true, parcels, comparables, zones, streets, ms: Math.round(performance.now() - t0) }
  })
}
