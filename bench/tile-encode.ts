/**
 * What a cold tile costs in Node after its SQL: reading the rows into features (WKB, projection,
 * simplification), cutting them into the tile and MVT encoding, then gzip at each level, per tile,
 * over a few hundred tiles of the loaded data (every tile over its extent, for every tile set,
 * z14–18). The tiles' rows are queried once; the Node work is then timed on those rows alone, so the
 * database and the machine's other work hardly enter the figures.
 *
 *   node bench/tile-encode.ts [--passes N] [--minzoom Z] [--maxzoom Z]     (DATABASE_URL, or the embedded database under DATA_DIR)
 */
import { parseArgs } from 'node:util'
import { gzipSync } from 'node:zlib'
import { tileLayerIds } from '#core/contract/tiles.ts'
import type { TileRange } from '#core/offline/tile-grid.ts'
import { loadConfig } from '../server/src/config.ts'
import { openDatabase } from '../server/src/db/index.ts'
import { migrate } from '../server/src/db/migrate.ts'
import { tileSets, type TileSet } from '../server/src/tiles/layers.ts'
import { activeLayers, cutTiles, sourceFeatures, sourceRows, type SourceRow } from '../server/src/tiles/render.ts'

const { values: args } = parseArgs({
  options: {
    passes: { type: 'string', default: '5' },
    minzoom: { type: 'string', default: '14' },
    maxzoom: { type: 'string', default: '18' },
  },
})
const passes = Number(args.passes)
const [minzoom, maxzoom] = [Number(args.minzoom), Number(args.maxzoom)]

function tileOf(lng: number, lat: number, z: number): [number, number] {
  const n = 2 ** z
  const r = (lat * Math.PI) / 180
  return [
    Math.floor(((lng + 180) / 360) * n),
    Math.floor(((1 - Math.log(Math.tan(r) + 1 / Math.cos(r)) / Math.PI) / 2) * n),
  ]
}

/**
 * Mean CPU ms per call of `fn` over every input, `passes` times after one untimed pass. CPU time, not
 * wall time: on the shared machine a neighbour's work would otherwise land in the figure.
 */
function perCall<T>(inputs: T[], fn: (input: T) => unknown): number {
  for (const input of inputs) fn(input)
  const t0 = process.cpuUsage()
  for (let p = 0; p < passes; p++) for (const input of inputs) fn(input)
  const t = process.cpuUsage(t0)
  return (t.user + t.system) / 1000 / (passes * inputs.length)
}

const db = await openDatabase(loadConfig())
try {
  await migrate(db)
  const [ext] = await db.query<{ w: number | null; s: number; e: number; n: number }>(
    `select ST_XMin(b)::float8 as w, ST_YMin(b)::float8 as s, ST_XMax(b)::float8 as e, ST_YMax(b)::float8 as n
     from (select ST_Extent(bounds) as b from datasets) t`,
  )
  if (ext?.w == null) throw new Error('No data loaded: run npm run seed first.')
  const tiles: { set: TileSet; range: TileRange; rows: SourceRow[] }[] = []
  for (const id of tileLayerIds) {
    const set = tileSets[id]
    for (let z = Math.max(minzoom, set.minzoom); z <= Math.min(maxzoom, set.maxzoom); z++) {
      const [x0, y0] = tileOf(ext.w, ext.n, z)
      const [x1, y1] = tileOf(ext.e, ext.s, z)
      for (let y = y0; y <= y1; y++) {
        for (let x = x0; x <= x1; x++) {
          const range = { z, minX: x, maxX: x, minY: y, maxY: y }
          const rows = await sourceRows(db, set, range)
          if (rows.length > 0) tiles.push({ set, range, rows })
        }
      }
    }
  }
  const render = (t: (typeof tiles)[number]) =>
    cutTiles(activeLayers(t.set, t.range.z), sourceFeatures(t.set, t.range.z, t.rows), t.range.z, [
      { x: t.range.minX, y: t.range.minY },
    ])[0] ?? null
  const pbfs = tiles.map(render).filter((b): b is Uint8Array<ArrayBuffer> => b !== null)
  const features = tiles.reduce((n, t) => n + t.rows.length, 0)
  const pbfBytes = pbfs.reduce((n, b) => n + b.length, 0)
  const line = (name: string, ms: number, bytes: number) =>
    `${name.padEnd(14)}${ms.toFixed(3).padStart(9)} ms/tile${(bytes / pbfs.length / 1000).toFixed(2).padStart(9)} kB/tile${((100 * bytes) / pbfBytes).toFixed(1).padStart(7)} % of pbf`
  const out = [
    `${pbfs.length} non-empty tiles (z${minzoom}–${maxzoom}, ${tileLayerIds.join(', ')}), ${(features / tiles.length).toFixed(1)} rows/tile, ${passes} timed passes, ${db.kind}`,
    line('rows to pbf', perCall(tiles, render), pbfBytes),
  ]
  for (const level of [1, 2, 3, 4, 5, 6, 9]) {
    const bytes = pbfs.reduce((n, b) => n + gzipSync(b, { level }).length, 0)
    out.push(
      line(
        `gzip level ${level}`,
        perCall(pbfs, (b) => gzipSync(b, { level })),
        bytes,
      ),
    )
  }
  process.stdout.write(out.join('\n') + '\n')
} finally {
  await db.close()
}
