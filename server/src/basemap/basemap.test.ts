import { mkdtempSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { gunzipSync } from 'node:zlib'
import { VectorTile } from '@mapbox/vector-tile'
import { PbfReader } from 'pbf'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { tileJson } from '#core/contract/tiles.ts'
import { writeOsmPbf, type OsmNode, type OsmWay } from '../../../tests/support/osm-pbf.ts'
import { ImportError } from '../import/errors.ts'
import { createTestApp, type TestApp } from '../testing/test-app.ts'
import { importOsmBasemap } from './import-osm.ts'
import { classifyOsm, otherTags } from './osm.ts'

// A z16 tile in the South Atlantic, where no other test's data lies.
const Z = 16
const [TX, TY] = [26_000, 37_000]
/** Tile pixel (0..4096 of tile TX/TY at Z) → [lat, lon]. */
function at(px: number, py: number): { lat: number; lon: number } {
  const k = 2 ** Z
  const lon = ((TX + px / 4096) / k) * 360 - 180
  const lat = (Math.atan(Math.sinh(Math.PI * (1 - (2 * (TY + py / 4096)) / k))) * 180) / Math.PI
  return { lat, lon }
}

let nodeId = 0
const nodes: OsmNode[] = []
const node = (px: number, py: number, tags?: Record<string, string>) => {
  nodes.push({ id: ++nodeId, ...at(px, py), ...(tags ? { tags } : {}) })
  return nodeId
}
const square = (x0: number, y0: number, x1: number, y1: number) => {
  const first = node(x0, y0)
  return [first, node(x1, y0), node(x1, y1), node(x0, y1), first]
}
const ways: OsmWay[] = [
  { id: 1, refs: [node(0, 2000), node(4096, 2100)], tags: { highway: 'primary', name: 'Đại lộ Thử Nghiệm' } },
  { id: 2, refs: [node(2000, 0), node(2050, 4096)], tags: { highway: 'residential', name: 'Đường Số 7' } },
  { id: 3, refs: [node(500, 500), node(800, 900)], tags: { highway: 'bus_stop' } },
  { id: 4, refs: square(100, 100, 900, 900), tags: { natural: 'water', name: 'Hồ Sen' } },
  { id: 5, refs: square(2500, 2500, 2700, 2700), tags: { building: 'yes' } },
  { id: 6, refs: square(3000, 300, 3900, 1200), tags: { landuse: 'residential' } },
  { id: 7, refs: square(300, 3000, 1200, 3900), tags: { leisure: 'park', name: 'Công viên Thử' } },
]
node(3500, 3500, { place: 'suburb', name: 'Phường Thử Nghiệm' })
node(2600, 3200, { amenity: 'school', name: 'Trường Tiểu học Thử' })
node(3600, 3300, { shop: 'convenience', name: 'Cửa hàng không vẽ' })

type Decoded = Record<string, { type: number; properties: Record<string, unknown> }[]>
async function getTile(t: TestApp, z: number, x: number, y: number): Promise<{ status: number; layers: Decoded }> {
  const res = await t.app.request(`/tiles/basemap/${z}/${x}/${y}.pbf`, { headers: { 'accept-encoding': 'gzip' } })
  if (res.status !== 200) return { status: res.status, layers: {} }
  const tile = new VectorTile(new PbfReader(new Uint8Array(gunzipSync(new Uint8Array(await res.arrayBuffer())))))
  const layers: Decoded = {}
  for (const [name, layer] of Object.entries(tile.layers)) {
    layers[name] = Array.from({ length: layer.length }, (_, i) => ({
      type: layer.feature(i).type,
      properties: layer.feature(i).properties,
    }))
  }
  return { status: 200, layers }
}

let t: TestApp
let dir: string
const DATASET = `basemap-test-${process.pid}`

beforeAll(async () => {
  t = await createTestApp()
  dir = mkdtempSync(join(tmpdir(), 'qh-osm-'))
  writeFileSync(join(dir, 'thu-nghiem.osm.pbf'), writeOsmPbf(nodes, ways))
}, 240_000)

afterAll(async () => {
  await t.db.query('delete from datasets where id = $1', [DATASET])
  rmSync(dir, { recursive: true, force: true })
})

describe('OpenStreetMap tags read as basemap features', () => {
  it('reads roads by class, water, buildings, land use, places and named amenities, and leaves the rest out', () => {
    expect(classifyOsm('lines', { highway: 'trunk', name: 'Quốc lộ 1' })).toEqual({
      kind: 'road',
      subkind: 'main',
      name: 'Quốc lộ 1',
    })
    expect(classifyOsm('lines', { highway: 'service' })).toEqual({ kind: 'road', subkind: 'alley', name: '' })
    expect(classifyOsm('lines', { waterway: 'canal', name: 'Kênh Nhiêu Lộc' })?.kind).toBe('water')
    expect(classifyOsm('lines', { power: 'line' })).toBeNull()
    expect(classifyOsm('multipolygons', { building: 'house', landuse: 'residential' })?.kind).toBe('block')
    expect(classifyOsm('multipolygons', { landuse: 'industrial' })).toEqual({
      kind: 'landuse',
      subkind: 'industrial',
      name: '',
    })
    expect(
      classifyOsm('multipolygons', { boundary: 'administrative', other_tags: '"admin_level"=>"8"', name: 'Phường 1' })
        ?.kind,
    ).toBe('ward_boundary')
    expect(classifyOsm('points', { place: 'village', name: 'Làng Sen' })?.kind).toBe('place')
    expect(classifyOsm('points', { place: 'village' })).toBeNull()
    expect(
      classifyOsm('points', {
        other_tags: '"amenity"=>"marketplace","name:en"=>"Ben Thanh Market"',
        name: 'Chợ Bến Thành',
      })?.kind,
    ).toBe('landmark')
    expect(otherTags('"a"=>"x \\"y\\"","b"=>"z"')).toEqual({ a: 'x "y"', b: 'z' })
  })
})

describe('an OpenStreetMap extract as the basemap', () => {
  it('imports a small .osm.pbf and serves its roads with names, water, land use, buildings, places and landmarks in the basemap tiles', async () => {
    const s = await importOsmBasemap(t.db, {
      file: join(dir, 'thu-nghiem.osm.pbf'),
      datasetId: DATASET,
      name: 'OSM thử',
      source: 'OpenStreetMap',
      date: '2026-11-01',
    })
    expect(s.counts).toEqual({ road: 2, water: 1, block: 1, landuse: 1, green: 1, place: 1, landmark: 1 })

    const { status, layers } = await getTile(t, Z, TX, TY)
    expect(status).toBe(200)
    const names = (layer: string) => (layers[layer] ?? []).map((f) => f.properties.name).sort()
    expect(names('streets')).toEqual(['Đường Số 7', 'Đại lộ Thử Nghiệm'])
    expect(layers.streets?.map((f) => f.properties.class).sort()).toEqual(['main', 'street'])
    expect(layers.water).toEqual([{ type: 3, properties: { name: 'Hồ Sen', kind: 'water' } }])
    expect(layers.blocks?.map((f) => f.type)).toEqual([3])
    expect(layers.landuse?.map((f) => f.properties.kind)).toEqual(['residential'])
    expect(names('green')).toEqual(['Công viên Thử'])
    expect(layers.places).toEqual([{ type: 1, properties: { name: 'Phường Thử Nghiệm', kind: 'suburb' } }])
    expect(names('landmarks')).toEqual(['Trường Tiểu học Thử'])

    // Zoomed out, only main roads are drawn, and a ward's name only from z12.
    const out = await getTile(t, 13, TX >> 3, TY >> 3)
    expect(out.layers.streets?.map((f) => f.properties.name)).toEqual(['Đại lộ Thử Nghiệm'])
    expect(out.layers.places?.map((f) => f.properties.name)).toEqual(['Phường Thử Nghiệm'])
    const far = await getTile(t, 11, TX >> 5, TY >> 5)
    expect(far.layers.places).toBeUndefined()

    const tj = tileJson.parse((await t.request('/tiles/basemap.json')).body)
    expect(tj.vector_layers.map((l) => l.id)).toEqual(expect.arrayContaining(['landuse', 'places', 'streets']))
    expect(tj.attribution).toContain('OpenStreetMap')
  })

  it('gives its named streets to the price table and search when the province is known, and leaves them drawn only when not', async () => {
    const streetsOf = () =>
      t.db.query<{ name: string; class: string; province: string }>(
        `select name, "class", province from streets where dataset_id = $1 order by name`,
        [DATASET],
      )
    const without = await importOsmBasemap(t.db, {
      file: join(dir, 'thu-nghiem.osm.pbf'),
      datasetId: DATASET,
      name: 'OSM thử',
      source: 'OpenStreetMap',
      date: '2026-11-01',
    })
    expect(without.streets).toEqual({ kept: 0, unplaced: 2 })
    expect(await streetsOf()).toEqual([])

    const s = await importOsmBasemap(t.db, {
      file: join(dir, 'thu-nghiem.osm.pbf'),
      datasetId: DATASET,
      name: 'OSM thử',
      source: 'OpenStreetMap',
      date: '2026-11-01',
      province: 'Đà Nẵng',
    })
    expect(s.streets).toEqual({ kept: 2, unplaced: 0 })
    expect(await streetsOf()).toEqual([
      { name: 'Đường Số 7', class: 'street', province: 'Thành phố Đà Nẵng' },
      { name: 'Đại lộ Thử Nghiệm', class: 'main', province: 'Thành phố Đà Nẵng' },
    ])
    expect(
      await t.db.query(`select name from street_names where name = any($1::text[]) order by name`, [
        ['Đường Số 7', 'Đại lộ Thử Nghiệm'],
      ]),
    ).toEqual([{ name: 'Đường Số 7' }, { name: 'Đại lộ Thử Nghiệm' }])
    // Drawn once, from the streets now.
    const { layers } = await getTile(t, Z, TX, TY)
    expect((layers.streets ?? []).map((f) => f.properties.name).sort()).toEqual(['Đường Số 7', 'Đại lộ Thử Nghiệm'])
  })

  it('refuses a file that is not an OpenStreetMap extract with one clear line and writes nothing', async () => {
    const file = join(dir, 'khong-phai-osm.geojson')
    writeFileSync(
      file,
      JSON.stringify({
        type: 'FeatureCollection',
        features: [{ type: 'Feature', properties: {}, geometry: { type: 'Point', coordinates: [1, 1] } }],
      }),
    )
    const refused = importOsmBasemap(t.db, {
      file,
      datasetId: `${DATASET}-bad`,
      name: 'x',
      source: 'x',
      date: '2026-11-01',
    })
    await expect(refused).rejects.toThrow(ImportError)
    await expect(refused).rejects.toThrow(/không phải dữ liệu OpenStreetMap/)
    expect(await t.db.query('select 1 from datasets where id = $1', [`${DATASET}-bad`])).toEqual([])
  })
})
