/**
 * Makes server/assets/vn-admin-2025/vn-admin-2025.twkb.json.gz from the boundary GeoPackage's two
 * layers exported as GeoJSON (server/assets/vn-admin-2025/README.md has the commands). Each unit keeps
 * its attributes as JSON and its geometry as TWKB at 5 decimals (≈1 m), written by PostGIS itself, so
 * the server loads it with ST_GeomFromTWKB: 7 times smaller than GeoJSON text and about 40 times faster
 * to load on the embedded database (docs/performance.md).
 *
 *   node scripts/make-boundaries.ts provinces.geojson wards.geojson server/assets/vn-admin-2025/vn-admin-2025.twkb.json.gz
 */
import { readFileSync, writeFileSync } from 'node:fs'
import { gzipSync } from 'node:zlib'
import { openPglite } from '../server/src/db/pglite.ts'

type Feature = { properties: Record<string, string | null>; geometry: unknown }

const [provincesFile, wardsFile, out] = process.argv.slice(2)
if (!provincesFile || !wardsFile || !out) {
  console.error('usage: node scripts/make-boundaries.ts provinces.geojson wards.geojson out.twkb.json.gz')
  process.exit(1)
}
const read = (f: string) => (JSON.parse(readFileSync(f, 'utf8')) as { features: Feature[] }).features
const units = [
  ...read(provincesFile).map((f) => ({ level: 'province', province: f.properties.name, f })),
  ...read(wardsFile).map((f) => ({ level: 'ward', province: f.properties.province, f })),
]
const db = await openPglite(undefined)
await db.exec('create extension postgis')
const rows = await db.query<{ b: Uint8Array }>(
  `select ST_AsTWKB(ST_Multi(ST_GeomFromGeoJSON(g)), 5) as b from unnest($1::text[]) with ordinality as t(g, i) order by i`,
  [units.map((u) => JSON.stringify(u.f.geometry))],
)
await db.close()
const features = units.map((u, i) => ({
  level: u.level,
  name: u.f.properties.name,
  province: u.province,
  before_2025: u.f.properties.before_2025 ?? '',
  twkb: Buffer.from(rows[i]!.b).toString('base64'),
}))
writeFileSync(out, gzipSync(JSON.stringify({ format: 'twkb-5', features }), { level: 9 }))
console.log(`${features.length} units → ${out}`)
