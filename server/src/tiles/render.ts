import type { Geometry } from 'geojson'
import type { Queryable } from '../db/database.ts'
import type { SourceLayer, TileSet } from './layers.ts'
import { BUFFER, encodeTile, EXTENT, toMvtFeature, type MvtFeature, type MvtLayer } from './mvt.ts'

export function activeLayers(set: TileSet, z: number): SourceLayer[] {
  return set.layers.filter((l) => z >= l.minzoom)
}

/**
 * The tile row `b` for $1 z, $2 x, $3 y: ebox (tile in 3857), clip (tile plus buffer), q (clip in 4326,
 * for the GiST index), x0/y1 (top-left corner), k (tile units per metre), tol (one pixel of a 512-px
 * tile, in metres).
 */
export const TILE_BOX_CTE = `b as (
  select $1::int as z, e::box2d as ebox, ST_Expand(e, m)::box2d as clip, ST_Transform(ST_Expand(e, m), 4326) as q,
    ST_XMin(e) as x0, ST_YMax(e) as y1, ${EXTENT}.0 / w as k, w / 512.0 as tol
  from (
    select e, ST_XMax(e) - ST_XMin(e) as w, (ST_XMax(e) - ST_XMin(e)) * ${BUFFER}.0 / ${EXTENT}.0 as m
    from (select ST_TileEnvelope($1::int, $2::int, $3::int) as e) t0
  ) t
)`

/**
 * One statement for the whole tile: select by the GiST index with the buffered tile box in 4326, move
 * to 3857, clip to the buffered box (points to the tile itself, so a label lands in one tile only),
 * simplify by one pixel of a 512-px tile, then scale to tile units with y down and snap to the integer
 * grid. Only generic PostGIS functions: PGlite's PostGIS has no ST_AsMVT/ST_AsMVTGeom. Features that
 * clipping or simplifying emptied come back as null or empty and are dropped in Node, so the costly
 * expression is evaluated once per row.
 */
export function tileSql(layers: SourceLayer[]): string {
  const unions = layers.map((l, i) => `select ${i} as layer, s.fid, s.props, s.geom, s.sort from b cross join lateral (${l.select}) s`).join('\n  union all\n')
  return `
with ${TILE_BOX_CTE}, f as (
  ${unions}
)
select f.layer, f.fid::float8 as fid, f.props,
  ST_AsGeoJSON(
    ST_CollectionExtract(
      ST_SnapToGrid(
        ST_TransScale(
          ST_Simplify(ST_ClipByBox2D(ST_Transform(f.geom, 3857), case when ST_Dimension(f.geom) = 0 then b.ebox else b.clip end), b.tol),
          -b.x0, -b.y1, b.k, -b.k),
        1),
      ST_Dimension(f.geom) + 1),
    0)::json as geom
from f cross join b
order by f.layer, f.sort, f.fid`
}

type Row = { layer: number; fid: number; props: Record<string, unknown> | null; geom: Geometry | null }

function tags(props: Record<string, unknown> | null): Record<string, string | number | boolean> {
  const out: Record<string, string | number | boolean> = {}
  for (const [k, v] of Object.entries(props ?? {})) {
    if (typeof v === 'string' || typeof v === 'number' || typeof v === 'boolean') out[k] = v
  }
  return out
}

/** The set's layers for one tile, features quantised to tile coordinates and ready to encode. */
export async function queryTileLayers(db: Queryable, set: TileSet, z: number, x: number, y: number): Promise<MvtLayer[]> {
  const layers = activeLayers(set, z)
  if (layers.length === 0) return []
  const rows = await db.query<Row>(tileSql(layers), [z, x, y])
  const features: MvtFeature[][] = layers.map(() => [])
  for (const row of rows) {
    const feature = row.geom && toMvtFeature(row.geom, tags(row.props), row.fid)
    if (feature) features[row.layer]?.push(feature)
  }
  return layers.map((l, i) => ({ name: l.name, features: features[i] ?? [] }))
}

/** Protobuf bytes of the tile, or null when it has no feature. */
export async function renderTile(db: Queryable, set: TileSet, z: number, x: number, y: number): Promise<Uint8Array<ArrayBuffer> | null> {
  return encodeTile(await queryTileLayers(db, set, z, x, y))
}
