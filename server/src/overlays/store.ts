import type { OverlayRef } from '#core/contract/lookups.ts'
import { planLevelRankSql, replacedBy } from '#core/planning/plan-levels.ts'
import type { Queryable } from '../db/database.ts'

export type OverlayRow = OverlayRef & {
  source: string
  minzoom: number
  maxzoom: number
  bounds: [number, number, number, number]
  revision: string
}

const COLUMNS = `o.id, o.name, o.plan_level, o.decision_no, o.approved_at::text as approved_at, o.source, o.minzoom::int as minzoom,
  o.maxzoom::int as maxzoom, o.revision,
  array[ST_XMin(o.bounds), ST_YMin(o.bounds), ST_XMax(o.bounds), ST_YMax(o.bounds)]::float8[] as bounds`
// The most detailed plan first, then the newest approval (the order that decides which plan governs).
const ORDER = `order by ${planLevelRankSql('o.plan_level')}, o.approved_at desc, o.id`

export async function listOverlays(db: Queryable): Promise<OverlayRow[]> {
  return db.query<OverlayRow>(`select ${COLUMNS} from raster_overlays o ${ORDER}`)
}

/** The overlays whose sheet (not just its bounding box) covers the point, older versions marked as replaced. */
export async function overlaysAt(db: Queryable, lat: number, lng: number): Promise<OverlayRef[]> {
  return replacedBy(await db.query<Omit<OverlayRef, 'replaced_by'>>(OVERLAYS_AT_SQL, [lat, lng]))
}

/** The overlays covering the point $1 lat, $2 lng, in the order that decides which plan governs (before replacedBy). */
export const OVERLAYS_AT_SQL = `select o.id, o.name, o.plan_level, o.decision_no, o.approved_at::text as approved_at from raster_overlays o
     where o.footprint && ST_SetSRID(ST_MakePoint($2::float8, $1::float8), 4326) and ST_Covers(o.footprint, ST_SetSRID(ST_MakePoint($2::float8, $1::float8), 4326)) ${ORDER}`

export type OverlayTile = {
  revision: string
  minzoom: number
  maxzoom: number
  bounds: [number, number, number, number]
  png: Uint8Array | null
}

/** One tile and what is needed to answer for it; null when there is no such overlay. */
export async function overlayTile(
  db: Queryable,
  id: string,
  z: number,
  x: number,
  y: number,
): Promise<OverlayTile | null> {
  const rows = await db.query<OverlayTile>(
    `select o.revision, o.minzoom::int as minzoom, o.maxzoom::int as maxzoom,
       array[ST_XMin(o.bounds), ST_YMin(o.bounds), ST_XMax(o.bounds), ST_YMax(o.bounds)]::float8[] as bounds, t.png
     from raster_overlays o left join raster_overlay_tiles t on t.overlay_id = o.id and t.z = $2 and t.x = $3 and t.y = $4
     where o.id = $1`,
    [id, z, x, y],
  )
  return rows[0] ?? null
}
