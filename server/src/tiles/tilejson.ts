import type { TileJson } from '#core/contract/tiles.ts'
import type { Queryable } from '../db/database.ts'
import type { TileSet } from './layers.ts'

type DatasetRow = {
  name: string
  source: string
  data_date: string
  is_simulated: boolean
  w: number | null
  s: number | null
  e: number | null
  n: number | null
}

// Web Mercator stops here; TileJSON's own default bounds use the same latitude.
const MAX_LAT = 85.051129
const WORLD: [number, number, number, number] = [-180, -MAX_LAT, 180, MAX_LAT]

const SIMULATED = 'Dữ liệu mô phỏng'

const vnDate = (iso: string) => iso.split('-').reverse().join('/')

function attribution(rows: DatasetRow[]): string {
  if (rows.length === 0) return 'Chưa có dữ liệu'
  return rows
    .map((r) => {
      const named = `${r.name} — nguồn: ${r.source}, ngày dữ liệu ${vnDate(r.data_date)}`
      // Simulated data must say so, once, even when its name or source does not.
      return r.is_simulated && !named.includes(SIMULATED) ? `${named} (${SIMULATED})` : named
    })
    .join('; ')
}

function bounds(rows: DatasetRow[]): [number, number, number, number] {
  const boxes = rows.filter((r) => r.w !== null && r.s !== null && r.e !== null && r.n !== null)
  if (boxes.length === 0) return WORLD
  const clampLat = (v: number) => Math.max(-MAX_LAT, Math.min(MAX_LAT, v))
  return [
    Math.min(...boxes.map((r) => r.w!)),
    clampLat(Math.min(...boxes.map((r) => r.s!))),
    Math.max(...boxes.map((r) => r.e!)),
    clampLat(Math.max(...boxes.map((r) => r.n!))),
  ]
}

/** Wards listed in the parcels' `coverage`: enough to say where the data is, few enough to read in a line. */
export const COVERAGE_WARDS = 6

/** The wards the data covers (the admin units of the data's datasets, a short table, not the parcels), for a search that found nothing. */
async function coverage(db: Queryable): Promise<string[]> {
  const rows = await db.query<{ name: string; province: string }>(
    // Only wards of datasets with parcels or plans: the national boundaries cover the whole country.
    `select a.name, coalesce(a.province, '') as province from admin_units a join datasets d on d.id = a.dataset_id
     where a.level = 'ward' and d.kind <> 'areas' order by a.province, a.name limit ${COVERAGE_WARDS}`,
  )
  return rows.map((r) => [r.name, r.province].filter(Boolean).join(', '))
}

/** TileJSON 3.0.0 for one tile set; `origin` is the absolute base the tile URLs start with. */
export async function buildTileJson(db: Queryable, set: TileSet, origin: string): Promise<TileJson> {
  // The kinds are constants of the tile set, never user input.
  const kinds = set.datasetKinds.map((k) => `'${k.replace(/'/g, "''")}'`).join(', ')
  const rows = await db.query<DatasetRow>(
    `select name, source, to_char(data_date, 'YYYY-MM-DD') as data_date, is_simulated,
       ST_XMin(bounds)::float8 as w, ST_YMin(bounds)::float8 as s, ST_XMax(bounds)::float8 as e, ST_YMax(bounds)::float8 as n
     from datasets where kind in (${kinds}) order by data_date desc, id`,
  )
  const [w, s, e, n] = bounds(rows)
  const centerZoom = Math.min(set.maxzoom, Math.max(set.minzoom, 15))
  return {
    tilejson: '3.0.0',
    name: set.name,
    description: set.description,
    attribution: attribution(rows),
    scheme: 'xyz',
    tiles: [`${origin}/tiles/${set.id}/{z}/{x}/{y}.pbf`],
    minzoom: set.minzoom,
    maxzoom: set.maxzoom,
    bounds: [w, s, e, n],
    center: [(w + e) / 2, (s + n) / 2, centerZoom],
    vector_layers: set.layers.map((l) => ({
      id: l.name,
      description: l.description,
      minzoom: Math.max(l.minzoom, set.minzoom),
      maxzoom: set.maxzoom,
      fields: l.fields,
    })),
    data_date: rows.map((r) => r.data_date).reduce<string | null>((a, b) => (a === null || b > a ? b : a), null),
    ...(set.id === 'parcels' ? { coverage: await coverage(db) } : {}),
  }
}
