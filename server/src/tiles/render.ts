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
  const st = tileStatement(set, layers, 'node')
  const rows = await db.query<Row>(st.sql, [z, x, y], { prepare: st.name })
  const features: MvtFeature[][] = layers.map(() => [])
  for (const row of rows) {
    const feature = row.geom && toMvtFeature(row.geom, tags(row.props), row.fid)
    if (feature) features[row.layer]?.push(feature)
  }
  return layers.map((l, i) => ({ name: l.name, features: features[i] ?? [] }))
}

/**
 * The same tile from PostgreSQL's own encoder: the same layers, selection, order and one-pixel
 * simplification, clipped to the tile plus its buffer by ST_AsMVTGeom (points to the tile itself), one
 * bytea for the whole tile. On the tile tests' data both encoders' tiles decode to the same features (tiles.test.ts).
 */
export function nativeTileSql(layers: SourceLayer[]): string {
  const parts = layers.map(
    (l) => `coalesce((select ST_AsMVT(q, '${l.name}', ${EXTENT}, 'geom', 'fid') from (
      select s.fid::int8 as fid, s.props::jsonb as props, g.geom
      from b cross join lateral (${l.select}) s
        cross join lateral (select ST_AsMVTGeom(ST_Simplify(ST_Transform(s.geom, 3857), b.tol), b.ebox, ${EXTENT},
          case when ST_Dimension(s.geom) = 0 then 0 else ${BUFFER} end, true) as geom) g
      where g.geom is not null
      order by s.sort, s.fid) q), ''::bytea)`,
  )
  return `with ${TILE_BOX_CTE} select ${parts.join(' || ')} as mvt`
}

/**
 * 'node': our statement and the encoder in mvt.ts, the default on both databases. 'native': PostgreSQL's
 * ST_AsMVT, where PostGIS has it. Measured on the demo data (bench/tiles.ts, docs/performance.md,
 * round 2), ST_AsMVT took 1.0–1.8× the time of the Node path per tile (ST_AsMVTGeom repairs every
 * clipped polygon) and kept up to 5 % more sliver features at z16–17, so it stays an option.
 */
export type TileEncoder = 'node' | 'native'

const encoders = new WeakMap<Queryable, Promise<TileEncoder>>()

/** The best encoder the database offers: 'native' where ST_AsMVT works (not PGlite's PostGIS), else 'node'. Asked once per database. */
export function tileEncoder(db: Queryable): Promise<TileEncoder> {
  let known = encoders.get(db)
  if (!known) {
    known = db
      .query<{ n: number }>(`select length(ST_AsMVT(q, 't')) as n from (select 1 as a, ST_AsMVTGeom(ST_Point(1, 1), ST_MakeBox2D(ST_Point(0, 0), ST_Point(2, 2))) as geom) q`)
      .then(
        (rows) => ((rows[0]?.n ?? 0) > 0 ? 'native' : 'node'),
        () => 'node' as const,
      )
    encoders.set(db, known)
  }
  return known
}

/** The tile's one database statement with its prepared name, for the encoder and zoom. */
function tileStatement(set: TileSet, layers: SourceLayer[], encoder: TileEncoder): { sql: string; name: string } {
  // The active layers grow with the zoom by minzoom, so their count names the statement within a set.
  return { sql: encoder === 'native' ? nativeTileSql(layers) : tileSql(layers), name: `tile_${set.id}_${layers.length}_${encoder}` }
}

/**
 * The tile's database work alone (what the bench's raw side times): rows for the Node encoder, or the
 * finished protobuf from ST_AsMVT.
 */
export async function queryTile(db: Queryable, set: TileSet, z: number, x: number, y: number, encoder: TileEncoder = 'node'): Promise<unknown[]> {
  const layers = activeLayers(set, z)
  if (layers.length === 0) return []
  const st = tileStatement(set, layers, encoder)
  return db.query(st.sql, [z, x, y], { prepare: st.name })
}

/** Protobuf bytes of the tile, or null when it has no feature. */
export async function renderTile(db: Queryable, set: TileSet, z: number, x: number, y: number, encoder: TileEncoder = 'node'): Promise<Uint8Array<ArrayBuffer> | null> {
  if (encoder === 'node') return encodeTile(await queryTileLayers(db, set, z, x, y))
  const layers = activeLayers(set, z)
  if (layers.length === 0) return null
  const st = tileStatement(set, layers, encoder)
  const [row] = await db.query<{ mvt: Uint8Array }>(st.sql, [z, x, y], { prepare: st.name })
  return row && row.mvt.length > 0 ? new Uint8Array(row.mvt) : null
}
