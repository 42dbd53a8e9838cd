/**
 * Import speed and memory per format: a generated file of parcels (GeoJSON, Shapefile, GeoPackage) or
 * of market sales (CSV) is imported by `bench/import-child.ts` in a process of its own, whose peak RSS
 * is the import's. BENCH_IMPORT_ROWS sets the rows per file (10,000 by default); BENCH_IMPORT_GEOJSON_MB
 * grows the GeoJSON file to that size instead (1000 for the 1 GB figure in docs/importing.md), and
 * BENCH_IMPORT_DB=postgres leaves the embedded database out (it takes hours over such a file).
 */
import { execFileSync } from 'node:child_process'
import { createWriteStream, mkdirSync, rmSync, statSync, writeFileSync } from 'node:fs'
import { once } from 'node:events'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { writeShapefile } from '../server/src/import/fixtures/write-shapefile.ts'
import { writeVector } from '../server/src/import/fixtures/write-vector.ts'
import type { ImportOptions } from '../server/src/import/import-file.ts'
import { fmt, type Table } from './lib/table.ts'

const WGS84_PRJ =
  'GEOGCS["GCS_WGS_1984",DATUM["D_WGS_1984",SPHEROID["WGS_1984",6378137.0,298.257223563]],PRIMEM["Greenwich",0.0],UNIT["Degree",0.0174532925199433]]'

/** Parcel i: a 10 m square on a grid west of central TP.HCM, rings clockwise as shapefiles want. */
function ring(i: number): number[][] {
  const lng = 106.6 + (i % 1000) * 0.0002
  const lat = 10.7 + Math.floor(i / 1000) * 0.0002
  const d = 0.00009
  return [
    [lng, lat],
    [lng, lat + d],
    [lng + d, lat + d],
    [lng + d, lat],
    [lng, lat],
  ]
}
const props = (i: number) => ({
  so_to: 1 + Math.floor(i / 1000),
  so_thua: 1 + (i % 1000),
  dia_chi: `${1 + (i % 300)} Đường số ${1 + (i % 40)}`,
  phuong_xa: 'Phường An Lạc',
  tinh_tp: 'TP.HCM',
})

/** Streams a FeatureCollection to disk: `rows` features, or as many as make `megabytes`. */
async function writeGeojson(file: string, rows: number, megabytes: number | null): Promise<number> {
  const out = createWriteStream(file)
  const limit = megabytes === null ? Number.POSITIVE_INFINITY : megabytes * 1e6
  let bytes = 0
  let n = 0
  const write = async (s: string) => {
    bytes += Buffer.byteLength(s)
    if (!out.write(s)) await once(out, 'drain')
  }
  await write('{"type":"FeatureCollection","features":[\n')
  for (; megabytes === null ? n < rows : bytes < limit; n++) {
    await write(
      `${n ? ',\n' : ''}${JSON.stringify({ type: 'Feature', properties: props(n), geometry: { type: 'Polygon', coordinates: [ring(n)] } })}`,
    )
  }
  await write('\n]}\n')
  out.end()
  await once(out, 'finish')
  return n
}

function writeCsv(file: string, rows: number): void {
  const lines = ['lat,lng,ngay_giao_dich,gia,dien_tich,mat_tien,loai']
  for (let i = 0; i < rows; i++) {
    const [lng, lat] = ring(i)[0]!
    lines.push(
      `${lat!.toFixed(7)},${lng!.toFixed(7)},2025-${String(1 + (i % 12)).padStart(2, '0')}-15,${(3_000_000_000 + (i % 50) * 100_000_000).toLocaleString('vi-VN')},${60 + (i % 90)},${4 + (i % 5)},nhà phố`,
    )
  }
  writeFileSync(file, lines.join('\n') + '\n')
}

type Run = {
  format: string
  file: string
  kind: ImportOptions['kind']
  bytes: number
  read: number
  inserted: number
  seconds: number
  openRss: number
  peakRss: number
}

export async function importSection(o: {
  show: (t: Table) => void
  log: (s: string) => void
  targets: { name: string; env: Record<string, string> }[]
}): Promise<Run[]> {
  const rows = Number(process.env.BENCH_IMPORT_ROWS ?? 10_000)
  const geojsonMb = process.env.BENCH_IMPORT_GEOJSON_MB ? Number(process.env.BENCH_IMPORT_GEOJSON_MB) : null
  const dir = join(tmpdir(), 'qh-bench', 'import-files')
  rmSync(dir, { recursive: true, force: true })
  mkdirSync(dir, { recursive: true })
  o.log(
    `Import: generating ${rows.toLocaleString('en-US')} rows per format${geojsonMb ? ` and a ${geojsonMb} MB GeoJSON` : ''}…`,
  )
  const files: { format: string; file: string; kind: ImportOptions['kind'] }[] = []
  const geojson = join(dir, 'thua-dat.geojson')
  const geojsonRows = await writeGeojson(geojson, rows, geojsonMb)
  files.push({ format: `GeoJSON (${geojsonRows.toLocaleString('en-US')} parcels)`, file: geojson, kind: 'parcels' })
  const base = join(dir, 'thua-dat')
  writeShapefile(
    base,
    [
      { name: 'so_to', type: 'N', length: 6 },
      { name: 'so_thua', type: 'N', length: 6 },
      { name: 'dia_chi', type: 'C', length: 60 },
      { name: 'phuong_xa', type: 'C', length: 40 },
      { name: 'tinh_tp', type: 'C', length: 20 },
    ],
    Array.from({ length: rows }, (_, i) => ({ rings: [ring(i)], attrs: props(i) })),
    { prj: WGS84_PRJ, cpg: 'UTF-8' },
  )
  files.push({ format: 'Shapefile', file: `${base}.shp`, kind: 'parcels' })
  const features = Array.from({ length: rows }, (_, i) => ({
    type: 'Feature',
    properties: props(i),
    geometry: { type: 'Polygon', coordinates: [ring(i)] },
  }))
  const [gpkgFile] = await writeVector({ type: 'FeatureCollection', features }, 'GPKG', dir, 'thua-dat')
  files.push({ format: 'GeoPackage', file: gpkgFile!, kind: 'parcels' })
  const csv = join(dir, 'giao-dich.csv')
  writeCsv(csv, rows)
  files.push({ format: 'CSV (sales)', file: csv, kind: 'comparables' })

  const table: Table = {
    title: 'Import: one generated file per format, in a process of its own',
    head: ['database', 'format', 'file MB', 'rows', 'seconds', 'rows/s', 'RSS after open MB', 'peak RSS MB'],
    rows: [],
    notes: [
      'RSS after open: the process with its database open (the embedded one lives in this process) before reading; peak: getrusage maxrss of the whole import.',
      'BENCH_IMPORT_ROWS sets the rows per file; BENCH_IMPORT_GEOJSON_MB makes the GeoJSON that size.',
    ],
  }
  const runs: Run[] = []
  const only = process.env.BENCH_IMPORT_DB
  for (const target of o.targets.filter((t) => !only || t.name === only)) {
    if (target.env.DATA_DIR) mkdirSync(target.env.DATA_DIR, { recursive: true })
    for (const f of files) {
      o.log(`Import: ${f.format} into ${target.name}…`)
      const options: ImportOptions = {
        file: f.file,
        kind: f.kind,
        source: 'bench',
        date: '2025-01-01',
        datasetId: `bench-import-${f.kind}`,
      }
      const out = execFileSync(
        process.execPath,
        [join(import.meta.dirname, 'import-child.ts'), JSON.stringify(options)],
        {
          env: { ...process.env, ...target.env, LOG_LEVEL: 'warn' },
          encoding: 'utf8',
          stdio: ['ignore', 'pipe', 'inherit'],
          maxBuffer: 1 << 20,
        },
      )
      const r = JSON.parse(out.trim().split('\n').at(-1)!) as Omit<Run, 'format' | 'file' | 'kind' | 'bytes'>
      const run = { ...f, ...r, bytes: statSync(f.file).size }
      runs.push(run)
      table.rows.push([
        target.name,
        f.format,
        fmt.mb(run.bytes),
        fmt.int(run.inserted),
        fmt.n(run.seconds, 1),
        fmt.int(run.inserted / run.seconds),
        fmt.mb(run.openRss),
        fmt.mb(run.peakRss),
      ])
    }
  }
  o.show(table)
  o.show(startupTable(o, dir))
  rmSync(dir, { recursive: true, force: true })
  return runs
}

/**
 * Import start-up: a one-row GeoJSON through `npm run import` as a person runs it, from the process's
 * start to its exit, against a database already migrated (the first run above did it), and the same
 * file with --dry-run, which opens no database. What is left of the import's time is the database
 * (the embedded one's PostGIS build is most of it) and the import's transaction.
 */
function startupTable(
  o: { targets: { name: string; env: Record<string, string> }[]; log: (s: string) => void },
  dir: string,
): Table {
  const file = join(dir, 'mot-thua.geojson')
  writeFileSync(
    file,
    JSON.stringify({
      type: 'FeatureCollection',
      features: [{ type: 'Feature', properties: props(0), geometry: { type: 'Polygon', coordinates: [ring(0)] } }],
    }),
  )
  const cli = join(import.meta.dirname, '..', 'server', 'src', 'cli', 'import.ts')
  const run = (env: Record<string, string>, extra: string[]) => {
    const started = performance.now()
    execFileSync(
      process.execPath,
      [
        cli,
        file,
        '--kind',
        'parcels',
        '--source',
        'bench',
        '--date',
        '2025-01-01',
        '--dataset',
        'bench-import-small',
        ...extra,
      ],
      {
        env: { ...process.env, ...env, LOG_LEVEL: 'warn' },
        stdio: 'ignore',
      },
    )
    return (performance.now() - started) / 1000
  }
  const table: Table = {
    title: 'Import start-up: a small file (one parcel) through npm run import, wall seconds',
    head: ['database', 'import', 'dry run (no database)', 'dry run / import'],
    rows: [],
    notes: ['The whole command, from starting Node to its exit; the database was migrated by the runs above.'],
  }
  const only = process.env.BENCH_IMPORT_DB
  for (const target of o.targets.filter((t) => !only || t.name === only)) {
    o.log(`Import: a small file into ${target.name}…`)
    const imported = run(target.env, [])
    const dry = run(target.env, ['--dry-run'])
    table.rows.push([target.name, fmt.n(imported, 1), fmt.n(dry, 1), fmt.n(dry / imported, 2)])
  }
  return table
}
