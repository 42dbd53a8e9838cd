import { tileCorner, type TileRange } from '#core/offline/tile-grid.ts'
import type { Queryable } from '../db/database.ts'
import {
  readGeometry,
  sourceFeature,
  tileFeature,
  worldFeature,
  type SourceFeature,
  type WorldFeature,
} from './geometry.ts'
import type { SourceLayer, TileSet } from './layers.ts'
import { BUFFER, encodeTile, EXTENT, type MvtFeature } from './mvt.ts'

export function activeLayers(set: TileSet, z: number): SourceLayer[] {
  return set.layers.filter((l) => z >= l.minzoom)
}

/**
 * The rows of every active layer for a box: $1 the zoom, $2–$5 west, south, east, north in degrees.
 * The database selects by the GiST index and sends each row's geometry as it is stored; projecting,
 * simplifying, clipping and quantising happen in Node (geometry.ts), once per row for all the tiles
 * of the box. Ordered as the tile's features are: layer, then the layer's sort, then id.
 */
export function sourceSql(layers: SourceLayer[]): string {
  const unions = layers
    .map((l, i) => `select ${i} as layer, s.fid, s.props, s.geom, s.sort from b cross join lateral (${l.select}) s`)
    .join('\n  union all\n')
  return `
with b as (select $1::int as z, ST_MakeEnvelope($2, $3, $4, $5, 4326) as q), f as (
  ${unions}
)
select f.layer, f.fid::float8 as fid, f.props, f.geom, f.sort::float8 as sort
from f
order by f.layer, f.sort, f.fid`
}

/** One row of sourceSql; `sort` is the layer's own order (every layer's is a number). */
export type SourceRow = {
  layer: number
  fid: number
  props: Record<string, unknown> | null
  geom: string
  sort: number
}

function tags(props: Record<string, unknown> | null): Record<string, string | number | boolean> {
  const out: Record<string, string | number | boolean> = {}
  for (const k in props) {
    const v = props[k]
    if (typeof v === 'string' || typeof v === 'number' || typeof v === 'boolean') out[k] = v
  }
  return out
}

/**
 * The box the rows of a tile rectangle are selected with, in degrees: the tiles plus their BUFFER and
 * one unit more, so the selection holds every row that clipping keeps in any of the tiles whatever the
 * rounding between degrees and tile units. What a tile shows is decided by clipping alone, so a tile
 * comes out the same asked alone or in any rectangle.
 */
function queryBox(r: TileRange): [number, number, number, number] {
  const pad = (BUFFER + 1) / EXTENT
  const nw = tileCorner(r.z, r.minX - pad, r.minY - pad)
  const se = tileCorner(r.z, r.maxX + 1 + pad, r.maxY + 1 + pad)
  return [nw.lng, se.lat, se.lng, nw.lat]
}

/**
 * The zoom whose rows serve zoom z: z itself, or the set's allRowsFrom when z is past it (every
 * deeper zoom selects the same rows, so they need not be asked for again).
 */
export function rowZoom(set: TileSet, z: number): number {
  return Math.min(z, set.allRowsFrom)
}

/** The set's rows for a rectangle of tiles of one zoom: the database's part of rendering them. */
export async function sourceRows(db: Queryable, set: TileSet, r: TileRange): Promise<SourceRow[]> {
  const layers = activeLayers(set, r.z)
  if (layers.length === 0) return []
  const st = sourceStatement(set, layers)
  return db.query<SourceRow>(st.sql, [r.z, ...queryBox(r)], { prepare: st.name })
}

/**
 * The rows of sourceRows read in `side` × `side` statements, each for a piece of its box (the pieces share their
 * edges and cover it whole), with `between` awaited after each with the milliseconds it took: no one statement
 * holds the database long (the tile store's filler, on the embedded database's one connection). A row reaching
 * several pieces is kept once, and the rows are put in sourceSql's order again, so the tiles cut from them are
 * the same bytes.
 */
export async function sourceRowsInPieces(
  db: Queryable,
  set: TileSet,
  r: TileRange,
  side: number,
  between: (ms: number) => Promise<void>,
): Promise<SourceRow[]> {
  const layers = activeLayers(set, r.z)
  if (layers.length === 0) return []
  const st = sourceStatement(set, layers)
  const [west, south, east, north] = queryBox(r)
  // The outer edges are the box's own values, so no piece reaches past it by a rounding.
  const at = (lo: number, hi: number, k: number) => (k === 0 ? lo : k === side ? hi : lo + ((hi - lo) * k) / side)
  const seen = new Set<string>()
  const rows: SourceRow[] = []
  for (let j = 0; j < side; j++) {
    for (let i = 0; i < side; i++) {
      const box = [at(west, east, i), at(south, north, j), at(west, east, i + 1), at(south, north, j + 1)]
      const t0 = performance.now()
      const piece = await db.query<SourceRow>(st.sql, [r.z, ...box], { prepare: st.name })
      const fresh = piece.filter((row) => !seen.has(`${row.layer}/${row.fid}`))
      for (const row of fresh) seen.add(`${row.layer}/${row.fid}`)
      rows.push(...fresh)
      await between(performance.now() - t0)
    }
  }
  return rows.sort((a, b) => a.layer - b.layer || a.sort - b.sort || a.fid - b.fid)
}

/** The rows as features in degrees, per active layer of zoom z (the zoom they were asked for). */
export function sourceFeatures(set: TileSet, z: number, rows: readonly SourceRow[]): SourceFeature[][] {
  const layers = activeLayers(set, z)
  const features: SourceFeature[][] = layers.map(() => [])
  for (const row of rows) {
    const geometry = readGeometry(row.geom)
    if (geometry)
      features[row.layer]?.push(sourceFeature(row.fid, tags(row.props), geometry, layers[row.layer]?.labelled ?? false))
  }
  return features
}

/**
 * Tiles of zoom z (any set of them), each protobuf bytes or null for a tile without features, cut
 * from the rows of a box that holds every one of them with its buffer. Only the features whose box
 * reaches the tiles are projected, and each is cut only into the tiles it reaches.
 */
export function cutTiles(
  layers: SourceLayer[],
  features: readonly SourceFeature[][],
  z: number,
  tiles: readonly { x: number; y: number }[],
): (Uint8Array<ArrayBuffer> | null)[] {
  if (tiles.length === 0) return []
  const r: TileRange = {
    z,
    minX: Math.min(...tiles.map((t) => t.x)),
    maxX: Math.max(...tiles.map((t) => t.x)),
    minY: Math.min(...tiles.map((t) => t.y)),
    maxY: Math.max(...tiles.map((t) => t.y)),
  }
  const width = r.maxX - r.minX + 1
  // Per place in the rectangle, the tile's index in `tiles` (-1 for a place not asked for).
  const at = new Int32Array(width * (r.maxY - r.minY + 1)).fill(-1)
  tiles.forEach((t, i) => (at[(t.y - r.minY) * width + (t.x - r.minX)] = i))
  // Per tile and layer, the features that may reach it, in the layer's order.
  const reach: WorldFeature[][][] = tiles.map(() => layers.map(() => []))
  const [west, south, east, north] = queryBox(r)
  const clamp = (v: number, lo: number, hi: number) => Math.max(lo, Math.min(hi, v))
  features.forEach((list, li) => {
    for (const source of list) {
      const [w, s, e, n] = source.bbox
      if (w > east || e < west || s > north || n < south) continue
      const f = worldFeature(source, z)
      if (!f) continue
      const b = f.geometry.type === 1 ? 0 : BUFFER
      const x0 = clamp(Math.floor((f.bbox[0] - b) / EXTENT), r.minX, r.maxX + 1)
      const x1 = clamp(Math.floor((f.bbox[2] + b) / EXTENT), r.minX - 1, r.maxX)
      const y0 = clamp(Math.floor((f.bbox[1] - b) / EXTENT), r.minY, r.maxY + 1)
      const y1 = clamp(Math.floor((f.bbox[3] + b) / EXTENT), r.minY - 1, r.maxY)
      for (let y = y0; y <= y1; y++) {
        for (let x = x0; x <= x1; x++) {
          const i = at[(y - r.minY) * width + (x - r.minX)]!
          if (i >= 0) reach[i]![li]!.push(f)
        }
      }
    }
  })
  return tiles.map((t, i) =>
    encodeTile(
      layers.map((l, li) => ({
        name: l.name,
        features: reach[i]![li]!.map((f) => tileFeature(f, t.x, t.y)).filter((f): f is MvtFeature => f !== null),
      })),
    ),
  )
}

/**
 * The same tile from PostgreSQL's own encoder: the same layers, selection and order, one-pixel
 * simplification and label rule, clipped to the tile plus its buffer by ST_AsMVTGeom (points to the
 * tile itself), one bytea for the whole tile. On the tile tests' data both encoders' tiles decode to
 * the same features (tiles.test.ts). $1 z, $2 x, $3 y.
 */
export function nativeTileSql(layers: SourceLayer[]): string {
  const parts = layers.map((l) => {
    // The label rule of geometry.ts in Web Mercator (GEOS's interior point, the same scan-line method):
    // the tile is half-open, x from its west edge, y from its north edge.
    const props = l.labelled
      ? `s.props::jsonb || jsonb_build_object('label', ST_X(lp) >= ST_XMin(b.ebox) and ST_X(lp) < ST_XMax(b.ebox) and ST_Y(lp) > ST_YMin(b.ebox) and ST_Y(lp) <= ST_YMax(b.ebox))`
      : 's.props::jsonb'
    return `coalesce((select ST_AsMVT(q, '${l.name}', ${EXTENT}, 'geom', 'fid') from (
      select s.fid::int8 as fid, ${props} as props, g.geom
      from b cross join lateral (${l.select}) s
        cross join lateral (select ST_AsMVTGeom(ST_Simplify(ST_Transform(s.geom, 3857), b.tol), b.ebox, ${EXTENT},
          case when ST_Dimension(s.geom) = 0 then 0 else ${BUFFER} end, true) as geom${l.labelled ? ', ST_Transform(ST_PointOnSurface(s.geom), 3857) as lp' : ''}) g
      where g.geom is not null
      order by s.sort, s.fid) q), ''::bytea)`
  })
  return `
with b as (
  select $1::int as z, e::box2d as ebox, ST_Transform(ST_Expand(e, w * ${BUFFER}.0 / ${EXTENT}.0), 4326) as q, w / 512.0 as tol
  from (select e, ST_XMax(e) - ST_XMin(e) as w from (select ST_TileEnvelope($1::int, $2::int, $3::int) as e) t0) t
)
select ${parts.join(' || ')} as mvt`
}

/**
 * 'node': our statement and the pipeline in geometry.ts and mvt.ts, the default on both databases.
 * 'native': PostgreSQL's ST_AsMVT, one statement per tile, where PostGIS has it. Measured on the demo
 * data (bench/tiles.ts, docs/performance.md), ST_AsMVT took longer per tile than either Node path and
 * kept more sliver features at z16–17, so it stays an option.
 */
export type TileEncoder = 'node' | 'native'

const encoders = new WeakMap<Queryable, Promise<TileEncoder>>()

/** The best encoder the database offers: 'native' where ST_AsMVT works (not PGlite's PostGIS), else 'node'. Asked once per database. */
export function tileEncoder(db: Queryable): Promise<TileEncoder> {
  let known = encoders.get(db)
  if (!known) {
    known = db
      .query<{ n: number }>(
        `select length(ST_AsMVT(q, 't')) as n from (select 1 as a, ST_AsMVTGeom(ST_Point(1, 1), ST_MakeBox2D(ST_Point(0, 0), ST_Point(2, 2))) as geom) q`,
      )
      .then(
        (rows) => ((rows[0]?.n ?? 0) > 0 ? 'native' : 'node'),
        () => 'node' as const,
      )
    encoders.set(db, known)
  }
  return known
}

/** The rows statement with its prepared name. The active layers grow with the zoom by minzoom, so their count names it within a set. */
function sourceStatement(set: TileSet, layers: SourceLayer[]): { sql: string; name: string } {
  return { sql: sourceSql(layers), name: `tiles_${set.id}_${layers.length}` }
}

function nativeStatement(set: TileSet, layers: SourceLayer[]): { sql: string; name: string } {
  return { sql: nativeTileSql(layers), name: `tile_${set.id}_${layers.length}_native` }
}

const single = (z: number, x: number, y: number): TileRange => ({ z, minX: x, maxX: x, minY: y, maxY: y })

/** The rectangle's tiles, row by row. */
export function rangeTiles(r: TileRange): { x: number; y: number }[] {
  const out: { x: number; y: number }[] = []
  for (let y = r.minY; y <= r.maxY; y++) for (let x = r.minX; x <= r.maxX; x++) out.push({ x, y })
  return out
}

/**
 * The tile's database work alone (what the bench's raw side times): its rows for the Node path, or
 * the finished protobuf from ST_AsMVT.
 */
export async function queryTile(
  db: Queryable,
  set: TileSet,
  z: number,
  x: number,
  y: number,
  encoder: TileEncoder = 'node',
): Promise<unknown[]> {
  if (encoder === 'node') return sourceRows(db, set, single(z, x, y))
  const layers = activeLayers(set, z)
  if (layers.length === 0) return []
  const st = nativeStatement(set, layers)
  return db.query(st.sql, [z, x, y], { prepare: st.name })
}

/**
 * Protobuf bytes of each tile of the rectangle, row by row, null for a tile without features: one
 * statement for the whole rectangle with the Node encoder, one per tile with ST_AsMVT.
 */
export async function renderTiles(
  db: Queryable,
  set: TileSet,
  r: TileRange,
  encoder: TileEncoder = 'node',
): Promise<(Uint8Array<ArrayBuffer> | null)[]> {
  const layers = activeLayers(set, r.z)
  if (encoder === 'node')
    return cutTiles(layers, sourceFeatures(set, r.z, await sourceRows(db, set, r)), r.z, rangeTiles(r))
  const out: (Uint8Array<ArrayBuffer> | null)[] = []
  for (let y = r.minY; y <= r.maxY; y++) {
    for (let x = r.minX; x <= r.maxX; x++) {
      if (layers.length === 0) {
        out.push(null)
        continue
      }
      const st = nativeStatement(set, layers)
      const [row] = await db.query<{ mvt: Uint8Array }>(st.sql, [r.z, x, y], { prepare: st.name })
      out.push(row && row.mvt.length > 0 ? new Uint8Array(row.mvt) : null)
    }
  }
  return out
}

/** Protobuf bytes of one tile, or null when it has no feature. */
export async function renderTile(
  db: Queryable,
  set: TileSet,
  z: number,
  x: number,
  y: number,
  encoder: TileEncoder = 'node',
): Promise<Uint8Array<ArrayBuffer> | null> {
  const [tile] = await renderTiles(db, set, single(z, x, y), encoder)
  return tile ?? null
}
