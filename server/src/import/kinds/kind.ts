import type { Geometry } from 'geojson'
import type { Queryable } from '../../db/database.ts'
import type { Projector } from '../crs.ts'
import { toWkt } from '../geometry.ts'
import type { FieldDefs, FieldGetter } from '../fields.ts'
import type { Crs, FileFormat, Rejection, SourceRecord } from '../types.ts'

export type KindContext = {
  datasetId: string
  crs: Crs
  project: Projector
  source: string
  /** The dataset's data date, YYYY-MM-DD. */
  date: string
  /** Multiplier for prices in the file (1000 when a table is in thousand đ/m²). */
  priceUnit: number
  /** True when --price-unit set it; otherwise a table's own unit line may. */
  priceUnitGiven: boolean
}

export type BatchResult = { inserted: number; repaired: number; rejected: Rejection[] }

/** A row as a kind maps it before writing: its record number, its geometry in WGS84 when it has one, and its values. */
export type PreparedRow = { n: number; geometry?: Geometry } & Record<string, unknown>

/** One import's mapping of records into rows of one kind, batched for multi-row inserts. */
export type KindHandler = {
  /** Maps one record into the pending batch; throws RowError to reject it. */
  add(rec: SourceRecord, get: FieldGetter): void
  pending(): number
  /** Called once after the last record, before the last flush: what only the end of the file settles. */
  end?(): void
  flush(tx: Queryable): Promise<BatchResult>
  /** Takes the pending rows as mapped, unwritten: what a dry run shows instead of writing them. */
  drain(): PreparedRow[]
}

export type Kind = {
  formats: FileFormat[]
  fields: FieldDefs
  /** Tables holding this kind's geometry, for the dataset's bounds. */
  geometryTables: string[]
  create(ctx: KindContext): KindHandler
  /** Runs once all rows are written, in the import's transaction: what the kind derives from the whole dataset. */
  finish?(tx: Queryable, datasetId: string): Promise<void>
}

export type SqlType = 'int' | 'int8' | 'float8' | 'text' | 'date' | 'bool' | 'jsonb'
export type Column = { name: string; type: SqlType; values: unknown[] }

export const emptyResult = (): BatchResult => ({ inserted: 0, repaired: 0, rejected: [] })

/**
 * The repair step every polygon insert shares: invalid input goes through ST_MakeValid and the
 * polygonal part is kept as a MultiPolygon. Rows left empty, or with next to no area (a ring of
 * collinear points), are `unusable`: left out and reported. The area test is planar, in square
 * degrees (1e-12 ≈ 0.01 m² at these latitudes): geodesic area is several times slower in PGlite.
 */
export const fixedPolygonsCte = `fixed as materialized (
  select v.*, ST_IsEmpty(v.geom) or ST_Area(v.geom) < 1e-12 as unusable
  from (
    select src.*, not ok as repaired, ST_Multi(ST_CollectionExtract(case when ok then raw else ST_MakeValid(raw) end, 3)) as geom
    from (select src.*, ST_IsValid(raw) as ok from src) src
  ) v
)`

export const polygonResultSelect = `select (select count(*)::int from ins) as inserted,
  count(*) filter (where repaired and not unusable)::int as repaired,
  coalesce(array_agg(n) filter (where unusable), '{}')::int[] as unusable
  from fixed`

export type PolygonResultRow = { inserted: number; repaired: number; unusable: number[] }

export const unusableReason = 'vùng rỗng hoặc suy biến (diện tích gần bằng 0) sau khi kiểm tra và sửa bằng ST_MakeValid'

/** `src`: the batch as rows, `n` and the WKT `g` first, the geometry parsed as `raw`. */
export const srcCte = (columns: { name: string; type: SqlType }[], first: number, extra = '') =>
  `src as (select ${extra}t.*, ST_GeomFromText(t.g, 4326) as raw from ${unnestFrom(columns, first)})`

export function toBatchResult(r: PolygonResultRow | undefined): BatchResult {
  return {
    inserted: r?.inserted ?? 0,
    repaired: r?.repaired ?? 0,
    rejected: (r?.unusable ?? []).map((n) => ({ n, reason: unusableReason })),
  }
}

/** `unnest($i::type[], …) as alias(name, …)` over the columns, parameters numbered from `first`. */
export function unnestFrom(columns: { name: string; type: SqlType }[], first: number, alias = 't'): string {
  const args = columns.map((c, i) => `$${first + i}::${c.type}[]`).join(', ')
  const names = columns.map((c) => `"${c.name}"`).join(', ')
  return `unnest(${args}) as ${alias}(${names})`
}

/**
 * Inserts polygons with their attribute columns in one statement (column names come from code, never
 * from the file), repairing invalid ones in SQL.
 */
export async function insertPolygons(
  tx: Queryable,
  table: string,
  datasetId: string,
  rows: { n: number; geometry: Geometry }[],
  columns: Column[],
): Promise<BatchResult> {
  const all: Column[] = [
    { name: 'n', type: 'int', values: rows.map((r) => r.n) },
    { name: 'g', type: 'text', values: rows.map((r) => toWkt(r.geometry)) },
    ...columns,
  ]
  const names = columns.map((c) => `"${c.name}"`).join(', ')
  const sql = `with ${srcCte(all, 2)}, ${fixedPolygonsCte},
    ins as (
      insert into ${table} (dataset_id, ${names}, geom)
      select $1, ${names}, geom from fixed where not unusable
      returning 1
    )
    ${polygonResultSelect}`
  const [r] = await tx.query<PolygonResultRow>(sql, [datasetId, ...all.map((c) => c.values)])
  return toBatchResult(r)
}
