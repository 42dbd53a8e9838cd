/**
 * Vector tiles: our path (the tile's rows from the database, cut and encoded in Node) against
 * PostgreSQL's native ST_AsMVT on the same tiles — bytes, features and time per tile, each tile
 * asked alone. PGlite's PostGIS has no ST_AsMVT, so there only ours is measured.
 *
 *   node bench/tiles.ts            (DATABASE_URL, or the embedded database under DATA_DIR)
 *
 * Uses the data already loaded (npm run seed). The embedded database is single-process: stop the
 * server first.
 */
import { VectorTile } from '@mapbox/vector-tile'
import { PbfReader } from 'pbf'
import { tileLayerIds, type TileLayerId } from '#core/contract/tiles.ts'
import { loadConfig } from '../server/src/config.ts'
import { openDatabase, type Database } from '../server/src/db/index.ts'
import { migrate } from '../server/src/db/migrate.ts'
import { tileSets } from '../server/src/tiles/layers.ts'
import { activeLayers, nativeTileSql, renderTile } from '../server/src/tiles/render.ts'

export type TileMeasure = { features: number; bytes: number; msPerTile: number; p95Ms: number }
export type TileBenchLine = {
  layer: TileLayerId
  z: number
  tiles: number
  ours: TileMeasure
  native: TileMeasure | null
}
export type TileBenchResult = { db: Database['kind']; center: [number, number]; runs: number; lines: TileBenchLine[] }

const zooms: Record<TileLayerId, number[]> = { basemap: [12, 14, 16], planning: [12, 14, 16], parcels: [16, 17, 18] }

function countFeatures(bytes: Uint8Array | null): number {
  if (!bytes || bytes.length === 0) return 0
  const tile = new VectorTile(new PbfReader(bytes))
  return Object.values(tile.layers).reduce((n, l) => n + l.length, 0)
}

function tileOf(lng: number, lat: number, z: number): [number, number] {
  const n = 2 ** z
  const r = (lat * Math.PI) / 180
  return [
    Math.floor(((lng + 180) / 360) * n),
    Math.floor(((1 - Math.log(Math.tan(r) + 1 / Math.cos(r)) / Math.PI) / 2) * n),
  ]
}

async function timed<T>(fn: () => Promise<T>): Promise<[T, number]> {
  const t0 = performance.now()
  const out = await fn()
  return [out, performance.now() - t0]
}

function measure(samples: { bytes: number; features: number; ms: number }[], tiles: number): TileMeasure {
  const ms = samples.map((s) => s.ms).sort((a, b) => a - b)
  const perTile = samples.slice(0, tiles)
  return {
    features: perTile.reduce((n, s) => n + s.features, 0) / tiles,
    bytes: perTile.reduce((n, s) => n + s.bytes, 0) / tiles,
    msPerTile: ms.reduce((a, b) => a + b, 0) / ms.length,
    p95Ms: ms[Math.min(ms.length - 1, Math.floor(ms.length * 0.95))] ?? 0,
  }
}

/**
 * A 3×3 block of tiles around the centre of the loaded data, per tile set and zoom; one warm-up pass,
 * then `runs` timed passes. Null when no dataset has bounds (nothing loaded).
 */
export async function benchTiles(db: Database, opts: { runs?: number } = {}): Promise<TileBenchResult | null> {
  const runs = opts.runs ?? 3
  const [ext] = await db.query<{ lng: number | null; lat: number | null }>(
    `select ST_X(c)::float8 as lng, ST_Y(c)::float8 as lat from (select ST_Centroid(ST_Extent(bounds)::geometry) as c from datasets) s`,
  )
  if (ext?.lng == null || ext.lat == null) return null
  const native = db.kind === 'postgres'
  const lines: TileBenchLine[] = []
  for (const layer of tileLayerIds) {
    const set = tileSets[layer]
    for (const z of zooms[layer]) {
      const [cx, cy] = tileOf(ext.lng, ext.lat, z)
      const tiles = [-1, 0, 1].flatMap((dy) => [-1, 0, 1].map((dx) => [cx + dx, cy + dy] as const))
      const sql = nativeTileSql(activeLayers(set, z))
      const ours: { bytes: number; features: number; ms: number }[] = []
      const theirs: { bytes: number; features: number; ms: number }[] = []
      for (let run = 0; run <= runs; run++) {
        for (const [x, y] of tiles) {
          const [pbf, ms] = await timed(() => renderTile(db, set, z, x, y, 'node'))
          if (run > 0) ours.push({ bytes: pbf?.length ?? 0, features: countFeatures(pbf), ms })
          if (!native) continue
          const [rows, nms] = await timed(() => db.query<{ mvt: Uint8Array }>(sql, [z, x, y]))
          const mvt = rows[0]?.mvt ?? null
          if (run > 0) theirs.push({ bytes: mvt?.length ?? 0, features: countFeatures(mvt), ms: nms })
        }
      }
      lines.push({
        layer,
        z,
        tiles: tiles.length,
        ours: measure(ours, tiles.length),
        native: native ? measure(theirs, tiles.length) : null,
      })
    }
  }
  return { db: db.kind, center: [ext.lng, ext.lat], runs, lines }
}

export function formatTileBench(r: TileBenchResult): string {
  const pad = (v: string | number, w: number) => String(v).padStart(w)
  const f1 = (v: number) => v.toFixed(1)
  const head = r.db === 'postgres' ? 'ours / ST_AsMVT' : 'ours (PGlite: no ST_AsMVT)'
  const out = [
    `Vector tiles on ${r.db}, 3×3 tiles around ${r.center[1].toFixed(5)}, ${r.center[0].toFixed(5)}, ${r.runs} timed runs — ${head}`,
    `${'set'.padEnd(9)}${pad('z', 3)}${pad('features', 16)}${pad('KB', 16)}${pad('ms/tile', 16)}${pad('p95 ms', 16)}${pad('time ratio', 11)}`,
  ]
  for (const l of r.lines) {
    const pair = (a: number, b: number | undefined, fmt: (v: number) => string) =>
      b === undefined ? fmt(a) : `${fmt(a)} / ${fmt(b)}`
    const n = l.native ?? undefined
    out.push(
      `${l.layer.padEnd(9)}${pad(l.z, 3)}` +
        pad(pair(l.ours.features, n?.features, f1), 16) +
        pad(pair(l.ours.bytes / 1024, n && n.bytes / 1024, f1), 16) +
        pad(pair(l.ours.msPerTile, n?.msPerTile, f1), 16) +
        pad(pair(l.ours.p95Ms, n?.p95Ms, f1), 16) +
        pad(n && n.msPerTile > 0 ? `${(l.ours.msPerTile / n.msPerTile).toFixed(2)}×` : '—', 11),
    )
  }
  return out.join('\n')
}

if (import.meta.main) {
  const db = await openDatabase(loadConfig())
  try {
    await migrate(db)
    const result = await benchTiles(db)
    if (!result) {
      process.stderr.write(
        'Chưa có dữ liệu để đo: chạy npm run seed trước. / No data loaded: run npm run seed first.\n',
      )
      process.exitCode = 1
    } else {
      process.stdout.write(formatTileBench(result) + '\n')
    }
  } finally {
    await db.close()
  }
}
