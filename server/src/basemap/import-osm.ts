import { existsSync, statSync } from 'node:fs'
import { basename } from 'node:path'
import type { Database, Queryable } from '../db/database.ts'
import { openVector, type VectorFile } from '../gdal/vector.ts'
import { ImportError } from '../import/errors.ts'
import { toWkt } from '../import/geometry.ts'
import { bumpDataVersion } from '../tiles/version.ts'
import { resolveProvince } from '#core/geo/provinces.ts'
import { classifyOsm, osmLayers, otherTags, type BaseFeature, type OsmLayer } from './osm.ts'

export type OsmImportOptions = {
  file: string
  /** The province the extract lies in (any spelling): its named streets are then the state price table's and search's. */
  province?: string | undefined
  datasetId: string
  name: string
  source: string
  date: string
  batchSize?: number
}
export type OsmImportSummary = {
  datasetId: string
  replaced: boolean
  read: number
  counts: Record<string, number>
  /** Named streets given to the price match and search (`streets`), and those left as drawn roads for want of a province. */
  streets: { kept: number; unplaced: number }
  seconds: number
}

// OGR SQL filters so GDAL hands over only what the basemap draws (an extract is mostly untagged nodes and footpaths' vertices).
const wanted: Record<OsmLayer, string | undefined> = {
  points: `place IS NOT NULL OR other_tags LIKE '%"amenity"=>%'`,
  lines: 'highway IS NOT NULL OR waterway IS NOT NULL',
  multipolygons: undefined,
}

type Row = BaseFeature & { wkt: string }
type StreetRow = { name: string; cls: string; width: number; wkt: string }

/** Typical widths (m) of OSM road classes, for a way without a `width` tag. */
const TYPICAL_WIDTH_M: Record<string, number> = { main: 24, street: 12, alley: 4 }

/**
 * Named roads become streets, the rows the state price table is matched against and search reads
 * (server/src/valuation, migration 019's price_row_at; server/src/search): each part of the way in the
 * province given (--province), else in the province of the ward or district area holding it (admin_units),
 * else left a drawn road only, and counted so the summary can say what --province would add.
 */
async function insertStreets(
  tx: Queryable,
  datasetId: string,
  rows: StreetRow[],
  province: string | null,
): Promise<{ kept: number; unplaced: number }> {
  const [r] = await tx.query<{ kept: number; unplaced: number }>(
    `with src as (
       select t.name, t.cls, t.width, (ST_Dump(ST_GeomFromText(t.g, 4326))).geom as geom
       from unnest($2::text[], $3::text[], $4::float8[], $5::text[]) as t(name, cls, width, g)
     ), placed as materialized (
       select src.*, coalesce($6::text, (select a.province from admin_units a
         where a.geom && src.geom and ST_Intersects(a.geom, ST_PointOnSurface(src.geom)) order by a.level = 'ward' desc, a.id limit 1)) as province
       from src where GeometryType(geom) = 'LINESTRING' and ST_Length(geom) > 0
     ), kept as (
       insert into streets (dataset_id, name, "class", width_m, province, ward, geom)
       select $1, name, cls, width, province, '', geom from placed where province is not null returning 1
     ), drawn as (
       insert into base_features (dataset_id, kind, subkind, name, geom)
       select $1, 'road', cls, name, geom from placed where province is null returning 1
     )
     select (select count(*) from kept)::int as kept, (select count(*) from drawn)::int as unplaced`,
    [
      datasetId,
      rows.map((x) => x.name),
      rows.map((x) => x.cls),
      rows.map((x) => x.width),
      rows.map((x) => x.wkt),
      province,
    ],
  )
  return { kept: r?.kept ?? 0, unplaced: r?.unplaced ?? 0 }
}

/** An OSM `width` tag in metres ("12", "12 m", "7.5"), else null. */
function widthTag(props: Record<string, unknown>): number | null {
  const m = /^\s*(\d+(?:[.,]\d+)?)\s*m?\s*$/.exec(otherTags(props.other_tags).width ?? '')
  const w = m ? Number(m[1]!.replace(',', '.')) : Number.NaN
  return w > 0 && w <= 200 ? w : null
}

async function insertRows(tx: Queryable, datasetId: string, rows: Row[]): Promise<void> {
  // Polygons from OSM are often self-touching; ST_MakeValid keeps their area instead of dropping them.
  await tx.query(
    `insert into base_features (dataset_id, kind, subkind, name, geom)
     select $1, kind, subkind, name, geom from (
       select kind, subkind, name,
         case when ST_Dimension(raw) = 2 and not ST_IsValid(raw) then ST_CollectionExtract(ST_MakeValid(raw), 3) else raw end as geom
       from (select t.kind, t.subkind, t.name, ST_GeomFromText(t.g, 4326) as raw
             from unnest($2::text[], $3::text[], $4::text[], $5::text[]) as t(kind, subkind, name, g)) s
     ) v where not ST_IsEmpty(geom)`,
    [datasetId, rows.map((r) => r.kind), rows.map((r) => r.subkind), rows.map((r) => r.name), rows.map((r) => r.wkt)],
  )
}

async function open(file: string): Promise<VectorFile> {
  if (!existsSync(file) || !statSync(file).isFile()) throw new ImportError(`Không tìm thấy tệp ${file}`)
  let vf: VectorFile
  try {
    vf = await openVector(file)
  } catch (err) {
    throw new ImportError(`Không đọc được ${basename(file)}: ${(err as Error).message}`)
  }
  if (vf.driver !== 'OSM') {
    await vf.close()
    throw new ImportError(
      `${basename(file)} không phải dữ liệu OpenStreetMap (.osm.pbf hoặc .osm); bản đồ nền nhập từ trích xuất OSM`,
    )
  }
  return vf
}

/**
 * Imports an OpenStreetMap extract as the basemap's data, all or nothing: roads with their names,
 * water, green, land use, buildings, landmarks, place names and ward boundaries into base_features,
 * read through GDAL's OSM driver (which assembles ways and multipolygon relations into geometries).
 * A dataset with the same id is replaced in the same transaction.
 */
export async function importOsmBasemap(db: Database, opts: OsmImportOptions): Promise<OsmImportSummary> {
  const started = performance.now()
  const province = opts.province === undefined ? null : resolveProvince(opts.province)
  if (opts.province !== undefined && !province)
    throw new ImportError(
      `Không nhận ra tỉnh/thành phố ${JSON.stringify(opts.province)} (--province); ghi tên tỉnh, ví dụ "TP. Hồ Chí Minh"`,
    )
  const vf = await open(opts.file)
  try {
    return await db.transaction(async (tx) => {
      await tx.query('set local jit = off')
      const [existing] = await tx.query<{ kind: string }>('select kind from datasets where id = $1 for update', [
        opts.datasetId,
      ])
      if (existing && existing.kind !== 'basemap')
        throw new ImportError(`Bộ dữ liệu "${opts.datasetId}" đã có, loại ${existing.kind}; không thay bằng bản đồ nền`)
      if (existing) await tx.query('delete from datasets where id = $1', [opts.datasetId])
      await tx.query(
        `insert into datasets (id, kind, name, source, data_date, crs) values ($1, 'basemap', $2, $3, $4, 'EPSG:4326')`,
        [opts.datasetId, opts.name, opts.source, opts.date],
      )
      const counts: Record<string, number> = {}
      let read = 0
      let batch: Row[] = []
      let named: StreetRow[] = []
      const streets = { kept: 0, unplaced: 0 }
      const flush = async () => {
        if (batch.length > 0) await insertRows(tx, opts.datasetId, batch)
        batch = []
        if (named.length > 0) {
          const r = await insertStreets(tx, opts.datasetId, named, province?.name ?? null)
          streets.kept += r.kept
          streets.unplaced += r.unplaced
        }
        named = []
      }
      for (const layer of osmLayers) {
        if (!vf.layers.some((l) => l.name === layer)) continue
        for await (const f of vf.features(layer, { where: wanted[layer], chunk: 20_000 })) {
          read++
          const b = f.geometry ? classifyOsm(layer, f.props) : null
          if (!b || !f.geometry) continue
          counts[b.kind] = (counts[b.kind] ?? 0) + 1
          if (b.kind === 'road' && b.name !== '') {
            const width = widthTag(f.props) ?? TYPICAL_WIDTH_M[b.subkind] ?? 8
            named.push({ name: b.name, cls: b.subkind, width, wkt: toWkt(f.geometry) })
          } else batch.push({ ...b, wkt: toWkt(f.geometry) })
          if (batch.length + named.length >= (opts.batchSize ?? 2000)) await flush()
        }
      }
      await flush()
      if (Object.keys(counts).length === 0)
        throw new ImportError(
          `${basename(opts.file)} không có đường, sông nước, nhà hay địa danh nào để vẽ bản đồ nền; không nhập gì`,
        )
      await tx.query(
        `update datasets set bounds = (
           select ST_MakeEnvelope(ST_XMin(e), ST_YMin(e), ST_XMax(e), ST_YMax(e), 4326)
           from (select ST_Extent(geom) as e from (select geom from base_features where dataset_id = $1
             union all select geom from streets where dataset_id = $1) g) x where e is not null
         ) where id = $1`,
        [opts.datasetId],
      )
      await bumpDataVersion(tx)
      return {
        datasetId: opts.datasetId,
        replaced: existing !== undefined,
        read,
        counts,
        streets,
        seconds: (performance.now() - started) / 1000,
      }
    })
  } finally {
    await vf.close()
  }
}
