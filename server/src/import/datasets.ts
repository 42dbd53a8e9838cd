import { formatVietnamTime } from '#core/time/vietnam-time.ts'
import type { Database, Queryable } from '../db/database.ts'
import { bumpDataVersion } from '../tiles/version.ts'
import { ImportError } from './errors.ts'

export type DatasetInfo = {
  id: string
  kind: string
  name: string
  source: string
  /** The date of the data, YYYY-MM-DD. */
  dataDate: string
  importedAt: Date
  crs: string
  /** [west, south, east, north] in WGS84, when the dataset has geometry. */
  bounds: [number, number, number, number] | null
  /** Rows the dataset holds in the tables lookups and tiles read (parcels, zones, streets, road reserves, price rows, comparables, areas, basemap features). */
  rows: number
  isSimulated: boolean
}

// The tables a dataset's rows live in. Rows derived from them (land-use shares, plans, parcel_places)
// are not counted again.
const rowTables = [
  'parcels',
  'planning_zones',
  'streets',
  'road_reserves',
  'price_rows',
  'price_coefficients',
  'residual_costs',
  'comparables',
  'admin_units',
  'base_features',
] as const

const countsSql = rowTables
  .map((t) => `select dataset_id, count(*) as n from ${t} group by dataset_id`)
  .join(' union all ')

async function query(db: Queryable, where: string, params: unknown[]): Promise<DatasetInfo[]> {
  const rows = await db.query<{
    id: string
    kind: string
    name: string
    source: string
    data_date: string
    imported_at: Date | string
    crs: string
    b: number[] | null
    rows: number
    is_simulated: boolean
  }>(
    `select d.id, d.kind, d.name, d.source, to_char(d.data_date, 'YYYY-MM-DD') as data_date, d.imported_at, d.crs, d.is_simulated,
       case when d.bounds is null then null else array[ST_XMin(d.bounds), ST_YMin(d.bounds), ST_XMax(d.bounds), ST_YMax(d.bounds)]::float8[] end as b,
       coalesce((select sum(c.n) from (${countsSql}) c where c.dataset_id = d.id), 0)::float8 as rows
     from datasets d ${where} order by d.imported_at, d.id`,
    params,
  )
  return rows.map((r) => ({
    id: r.id,
    kind: r.kind,
    name: r.name,
    source: r.source,
    dataDate: r.data_date,
    importedAt: new Date(r.imported_at),
    crs: r.crs,
    bounds: r.b && r.b.length === 4 ? [r.b[0]!, r.b[1]!, r.b[2]!, r.b[3]!] : null,
    rows: r.rows,
    isSimulated: r.is_simulated,
  }))
}

/** Every dataset, oldest import first. */
export function listDatasets(db: Queryable): Promise<DatasetInfo[]> {
  return query(db, '', [])
}

/**
 * Removes one dataset and everything it holds, all or nothing: its rows go with it (on delete
 * cascade) and the data version is bumped in the same transaction, so tile ETags change and every
 * server's tile cache drops what it holds. An unknown id changes nothing and names the ones there are.
 */
export async function removeDataset(db: Database, id: string): Promise<{ removed: DatasetInfo; dataVersion: number }> {
  return db.transaction(async (tx) => {
    await tx.query('select 1 from datasets where id = $1 for update', [id])
    const [removed] = await query(tx, 'where d.id = $1', [id])
    if (!removed) {
      const ids = (await tx.query<{ id: string }>('select id from datasets order by id')).map((r) => r.id)
      throw new ImportError(
        `Không có bộ dữ liệu "${id}"; ${ids.length ? `các bộ dữ liệu: ${ids.join(', ')}` : 'chưa có bộ dữ liệu nào'} (xem npm run datasets)`,
      )
    }
    await tx.query('delete from datasets where id = $1', [id])
    return { removed, dataVersion: await bumpDataVersion(tx) }
  })
}

const int = new Intl.NumberFormat('vi-VN', { maximumFractionDigits: 0 })
const fixed = (v: number) => v.toFixed(5)

/** One dataset as lines for a person: id and kind first, then what it holds and where it came from. */
export function formatDataset(d: DatasetInfo): string[] {
  const bounds = d.bounds
    ? `${fixed(d.bounds[0])}, ${fixed(d.bounds[1])} – ${fixed(d.bounds[2])}, ${fixed(d.bounds[3])} (kinh độ, vĩ độ WGS84)`
    : 'không có hình học'
  return [
    `${d.id} (${d.kind}${d.isSimulated ? ', mô phỏng' : ''}): ${d.name}`,
    `  ${int.format(d.rows)} dòng · nguồn: ${d.source} · ngày dữ liệu ${d.dataDate} · nhập lúc ${formatVietnamTime(d.importedAt)}`,
    `  hệ tọa độ gốc ${d.crs} · phạm vi ${bounds}`,
  ]
}
