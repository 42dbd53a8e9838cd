import { foldVietnamese } from '#core/text/fold.ts'
import type { TileLayerId } from '#core/contract/tiles.ts'
import type { Database } from '../../server/src/db/index.ts'
import type { Deps } from '../../server/src/deps.ts'
import { countedPlanningLookup } from '../../server/src/planning/planning.ts'
import { searchPlaces } from '../../server/src/search/search.ts'
import { countedValuation } from '../../server/src/valuation/valuation.ts'
import { tileSets } from '../../server/src/tiles/layers.ts'
import { queryTile } from '../../server/src/tiles/render.ts'
import { createTileStore } from '../../server/src/tiles/store.ts'
import { readDataVersion } from '../../server/src/tiles/version.ts'
import { loadResult, type LoadResult } from './stats.ts'
import type { Bbox, TileRef } from './tile-math.ts'

export type CountDeps = Pick<Deps, 'db' | 'config' | 'now' | 'logger'>

/** What every load run draws its requests from, in the same order for the API and for the raw SQL. */
export type Samples = {
  points: { lat: number; lng: number }[]
  queries: string[]
  bounds: Bbox
  parcels: number
  center: { lat: number; lng: number }
}

/** Counted lookups carry the bench accounts' ids: loop k counts against account k, as API connection k does. */
/** `search-ward`: search with the map's centre at a sample point, so its ward is searched first, as the map asks from zoom 14. */
export type Workload =
  | { kind: 'planning' | 'valuation'; userIds: string[] }
  | { kind: 'search' | 'search-ward' }
  | { kind: 'tiles' | 'stored-tiles'; tiles: TileRef[] }

/**
 * Parcels spread over the whole dataset (a fixed pseudo-random order, so every run asks the same
 * points), search terms as people type them (with and without diacritics, partial words, house
 * numbers), and the bounds of the parcels and plans.
 */
export async function pickSamples(db: Database, count = 200): Promise<Samples> {
  const points = await db.query<{ lat: number; lng: number }>(
    `select ST_Y(pt)::float8 as lat, ST_X(pt)::float8 as lng from (
       select ST_PointOnSurface(geom) as pt from parcels order by (id * 2654435761) % 4294967291 limit $1) s`,
    [count],
  )
  const streets = await db.query<{ name: string }>(
    `select distinct name from streets where class <> 'alley' order by name limit 12`,
  )
  const addresses = await db.query<{ address: string }>(
    `select address from parcels where address is not null and address <> '' order by (id * 2654435761) % 4294967291 limit 8`,
  )
  const wards = await db.query<{ name: string }>(
    `select name from admin_units where level = 'ward' order by id limit 4`,
  )
  const queries = [
    ...streets.map((s) => s.name),
    ...streets.slice(0, 6).map((s) => foldVietnamese(s.name)),
    ...streets.slice(6, 12).map((s) => foldVietnamese(s.name).slice(0, 7)),
    ...addresses.map((a) => a.address.split(',')[0] ?? a.address),
    ...wards.map((w) => foldVietnamese(w.name)),
  ].filter((q) => q.trim().length > 0)
  // The parcels' and plans' datasets only: the 2025 boundaries (kind areas) span the country, and a tile list over
  // their box at z18 ran the bench out of memory.
  const kinds = [...new Set([...tileSets.parcels.datasetKinds, ...tileSets.planning.datasetKinds])]
  const [ext] = await db.query<{ west: number; south: number; east: number; north: number; n: number }>(
    `select ST_XMin(e)::float8 as west, ST_YMin(e)::float8 as south, ST_XMax(e)::float8 as east, ST_YMax(e)::float8 as north,
       (select count(*) from parcels)::float8 as n
     from (select ST_Extent(bounds)::box2d as e from datasets where kind = any($1)) s`,
    [kinds],
  )
  if (!ext || points.length === 0) throw new Error('No data loaded')
  const bounds = { west: ext.west, south: ext.south, east: ext.east, north: ext.north }
  return {
    points,
    queries,
    bounds,
    parcels: ext.n,
    center: { lat: (ext.south + ext.north) / 2, lng: (ext.west + ext.east) / 2 },
  }
}

/**
 * The endpoint's own SQL, called directly on the server's Database: the same statements it runs for its
 * answer — for planning and valuation that includes reserving the lookup against the daily limit, which
 * the contract requires of every counted lookup — without HTTP, token check, validation or JSON.
 */
export function rawOperation(
  deps: CountDeps,
  samples: Samples,
  w: Workload,
): (i: number, loop: number) => Promise<unknown> {
  const { db } = deps
  const { points, queries } = samples
  const point = (i: number) => points[i % points.length] as { lat: number; lng: number }
  const userOf = (loop: number, ids: string[]) => ids[loop % ids.length] as string
  switch (w.kind) {
    case 'planning':
      return (i, loop) => countedPlanningLookup(deps, userOf(loop, w.userIds), point(i).lat, point(i).lng)
    case 'valuation':
      return (i, loop) => countedValuation(deps, userOf(loop, w.userIds), point(i))
    case 'search':
      return (i) => searchPlaces(db, queries[i % queries.length] as string, 10)
    case 'search-ward':
      return (i) => searchPlaces(db, queries[i % queries.length] as string, 10, point(i))
    case 'tiles':
      // The tile's own statement, prepared, as the server runs it.
      return (i) => {
        const t = w.tiles[i % w.tiles.length] as TileRef
        return queryTile(db, tileSets[t.layer as TileLayerId], t.z, t.x, t.y)
      }
    case 'stored-tiles': {
      // The tile read from the tile store, as the server reads a tile it has not in memory.
      // The server knows its data version without a statement per tile: read once here too.
      const store = createTileStore(db)
      const version = readDataVersion(db)
      return async (i) => {
        const t = w.tiles[i % w.tiles.length] as TileRef
        const r = { z: t.z, minX: t.x, maxX: t.x, minY: t.y, maxY: t.y }
        return store.read(await version, t.layer as TileLayerId, r)
      }
    }
  }
}

/**
 * `connections` loops, each awaiting one operation after another, for `durationMs` or until `amount`
 * operations have started (whichever is given), as autocannon drives HTTP connections.
 */
export async function runLoad(
  op: (i: number, loop: number) => Promise<unknown>,
  opts: { connections: number; durationMs?: number; amount?: number },
): Promise<LoadResult> {
  const samples: number[] = []
  let errors = 0
  let next = 0
  const t0 = performance.now()
  const end = opts.durationMs === undefined ? Number.POSITIVE_INFINITY : t0 + opts.durationMs
  const limit = opts.amount ?? Number.POSITIVE_INFINITY
  const loop = async (_: unknown, loopNo: number) => {
    while (next < limit && performance.now() < end) {
      const i = next++
      const start = performance.now()
      try {
        await op(i, loopNo)
        samples.push(performance.now() - start)
      } catch {
        errors += 1
      }
    }
  }
  await Promise.all(Array.from({ length: opts.connections }, loop))
  return loadResult(samples, errors, (performance.now() - t0) / 1000)
}
