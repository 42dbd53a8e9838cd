import { gunzipSync } from 'node:zlib'
import { VectorTile } from '@mapbox/vector-tile'
import { PbfReader } from 'pbf'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { tileJson } from '#core/contract/tiles.ts'
import type { Database } from '../../db/database.ts'
import { createTestApp, type TestApp } from '../../testing/test-app.ts'
import { tileSets } from '../../tiles/layers.ts'
import { ringArea2 } from '../../tiles/mvt.ts'
import { renderTile, tileEncoder } from '../../tiles/render.ts'
import { bumpDataVersion } from '../../tiles/version.ts'
import { rangeBbox, readPack, tileEtag, type PackEntry, type PackHeader } from '#core/offline/tile-pack.ts'
import { acceptsGzip } from '../../http/accepts-gzip.ts'
import { etagMatches } from '../../http/conditional.ts'

// A z16 tile in the open Pacific, where no other test's data can be.
const Z = 16
const LNG = -150.5
const LAT = -45.5
const n = 2 ** Z
const TX = Math.floor(((LNG + 180) / 360) * n)
const TY = Math.floor(
  ((1 - Math.log(Math.tan((LAT * Math.PI) / 180) + 1 / Math.cos((LAT * Math.PI) / 180)) / Math.PI) / 2) * n,
)

/** Tile pixel (0..4096 in the z16 tile TX/TY, y down) → [lng, lat]. */
function lngLat(px: number, py: number, z = Z, x = TX, y = TY): [number, number] {
  const k = 2 ** z
  const lng = ((x + px / 4096) / k) * 360 - 180
  const lat = (Math.atan(Math.sinh(Math.PI * (1 - (2 * (y + py / 4096)) / k))) * 180) / Math.PI
  return [lng, lat]
}

/** A closed ring through tile pixels, counter-clockwise on the map (the GeoJSON habit). */
function box(x0: number, y0: number, x1: number, y1: number): [number, number][] {
  return [lngLat(x0, y1), lngLat(x1, y1), lngLat(x1, y0), lngLat(x0, y0), lngLat(x0, y1)]
}

const geo = (g: object) => JSON.stringify(g)

type Decoded = Record<
  string,
  { type: number; id: number | undefined; properties: Record<string, unknown>; rings: { x: number; y: number }[][] }[]
>

function decode(bytes: Uint8Array): Decoded {
  const tile = new VectorTile(new PbfReader(bytes))
  const out: Decoded = {}
  for (const [name, layer] of Object.entries(tile.layers)) {
    expect(layer.extent).toBe(4096)
    out[name] = Array.from({ length: layer.length }, (_, i) => {
      const f = layer.feature(i)
      return {
        type: f.type,
        id: f.id,
        properties: f.properties,
        rings: f.loadGeometry().map((r) => r.map((p) => ({ x: p.x, y: p.y }))),
      }
    })
  }
  return out
}

async function getTile(t: TestApp, path: string, headers: Record<string, string> = {}) {
  const res = await t.app.request(path, { headers })
  const raw = new Uint8Array(await res.arrayBuffer())
  const bytes = res.headers.get('content-encoding') === 'gzip' ? new Uint8Array(gunzipSync(raw)) : raw
  return { status: res.status, headers: res.headers, raw, layers: res.status === 200 ? decode(bytes) : {} }
}

const coords = (f: Decoded[string][number]) => f.rings.flat()

describe('vector tiles', () => {
  let db: Database
  // One app for the file: building one loads the static site, which is slow once the front end is built.
  let t: TestApp
  const dataset = `tiles-test-${Date.now().toString(36)}${Math.random().toString(36).slice(2, 6)}`
  let parcelA = 0

  beforeAll(async () => {
    t = await createTestApp()
    db = t.db
    const tileBox = [lngLat(0, 4096), lngLat(4096, 0)] as const
    await db.query(
      `insert into datasets (id, kind, name, source, data_date, crs, bounds, is_simulated)
       values ($1, 'demo', 'Bộ dữ liệu thử bản đồ', 'Kiểm thử tự động', '2024-03-15', 'EPSG:4326', ST_MakeEnvelope($2, $3, $4, $5, 4326), true)`,
      [dataset, tileBox[0][0], tileBox[0][1], tileBox[1][0], tileBox[1][1]],
    )
    const insertParcel = async (sheet: number, no: number, rings: [number, number][][], uses: [string, number][]) => {
      const [row] = await db.query<{ id: number }>(
        `insert into parcels (dataset_id, province, ward, sheet_no, parcel_no, area_m2, geom)
         values ($1, 'Tỉnh Thử', 'Phường Thử', $2, $3, 100, ST_Multi(ST_SetSRID(ST_GeomFromGeoJSON($4), 4326))) returning id::float8 as id`,
        [dataset, sheet, no, geo({ type: 'Polygon', coordinates: rings })],
      )
      for (const [code, area] of uses)
        await db.query('insert into parcel_land_use (parcel_id, code, area_m2) values ($1, $2, $3)', [
          row!.id,
          code,
          area,
        ])
      return row!.id
    }
    // A square with a square hole, and a plain rectangle whose main use is the larger part (ODT).
    parcelA = await insertParcel(
      7,
      101,
      [box(1000, 1000, 2000, 2000), box(1400, 1400, 1600, 1600).reverse()],
      [['TMD', 80]],
    )
    await insertParcel(
      7,
      102,
      [box(2500, 500, 3000, 900)],
      [
        ['TMD', 20],
        ['ODT', 50],
      ],
    )

    const [plan] = await db.query<{ id: number }>(
      `insert into plans (dataset_id, name, level, decision_no, approved_at) values ($1, 'QHCT thử', 'QHCT 1/500', '1/QĐ-UBND', '2023-01-01') returning id::float8 as id`,
      [dataset],
    )
    // Reaches far beyond the tile on every side.
    await db.query(
      `insert into planning_zones (dataset_id, plan_id, block_code, land_use_code, max_density_pct, max_floors, max_far, geom)
       values ($1, $2, 'A1', 'ODT', 80, 5, 4.5, ST_Multi(ST_SetSRID(ST_GeomFromGeoJSON($3), 4326)))`,
      [dataset, plan!.id, geo({ type: 'Polygon', coordinates: [box(-3000, -3000, 7000, 7000)] })],
    )
    await db.query(
      `insert into road_reserves (dataset_id, plan_id, road_name, width_m, geom) values ($1, $2, 'Đường Thử', 20, ST_Multi(ST_SetSRID(ST_GeomFromGeoJSON($3), 4326)))`,
      [dataset, plan!.id, geo({ type: 'Polygon', coordinates: [box(0, 2100, 4096, 2300)] })],
    )
    const street = (name: string, cls: string, width: number, line: [number, number][]) =>
      db.query(
        `insert into streets (dataset_id, name, class, width_m, province, geom) values ($1, $2, $3, $4, 'Tỉnh Thử', ST_SetSRID(ST_GeomFromGeoJSON($5), 4326))`,
        [dataset, name, cls, width, geo({ type: 'LineString', coordinates: line })],
      )
    await street('Đại lộ Thử', 'main', 30, [lngLat(-3000, 3000), lngLat(7000, 3000)])
    await street('Hẻm Thử', 'alley', 1.5, [lngLat(3500, 100), lngLat(3500, 3900)])
    const base = (kind: string, name: string, subkind: string, g: object) =>
      db.query(
        `insert into base_features (dataset_id, kind, name, subkind, geom) values ($1, $2, $3, $4, ST_SetSRID(ST_GeomFromGeoJSON($5), 4326))`,
        [dataset, kind, name, subkind, geo(g)],
      )
    await base('landmark', 'Chợ Thử', 'market', { type: 'Polygon', coordinates: [box(1450, 2450, 1550, 2550)] })
    await base('water', 'Kênh Thử', 'canal', { type: 'Polygon', coordinates: [box(0, 3500, 4096, 3700)] })
    await base('ward_boundary', 'Phường Thử', 'ward', { type: 'Polygon', coordinates: [box(200, -9000, 12000, 12000)] })
  })

  afterAll(async () => {
    await db.transaction(async (tx) => {
      await tx.query('delete from datasets where id = $1', [dataset])
      await bumpDataVersion(tx)
    })
  })

  it('draws parcels at their known tile coordinates with sheet, parcel number and main land use', async () => {
    const res = await getTile(t, `/tiles/parcels/${Z}/${TX}/${TY}.pbf`)
    expect(res.status).toBe(200)
    expect(res.headers.get('content-type')).toBe('application/x-protobuf')
    expect(Object.keys(res.layers)).toEqual(['parcels'])
    const parcels = res.layers.parcels!
    expect(parcels).toHaveLength(2)
    const a = parcels.find((f) => f.properties.parcel_no === 101)!
    const b = parcels.find((f) => f.properties.parcel_no === 102)!
    expect(a.properties).toEqual({ id: String(parcelA), sheet_no: 7, parcel_no: 101, land_use: 'TMD', label: true })
    expect(a.id).toBe(parcelA)
    expect(b.properties.land_use).toBe('ODT')
    expect(a.type).toBe(3)
    // Exterior and hole of four corners each; the decoder repeats the first point for ClosePath.
    expect(a.rings).toHaveLength(2)
    for (const ring of a.rings) {
      expect(ring).toHaveLength(5)
      expect(ring[4]).toEqual(ring[0])
    }
    const near = (ring: { x: number; y: number }[], corners: [number, number][]) =>
      corners.every(([x, y]) => ring.some((p) => Math.abs(p.x - x) <= 1 && Math.abs(p.y - y) <= 1))
    expect(
      near(a.rings[0]!, [
        [1000, 1000],
        [2000, 1000],
        [2000, 2000],
        [1000, 2000],
      ]),
    ).toBe(true)
    expect(
      near(a.rings[1]!, [
        [1400, 1400],
        [1600, 1400],
        [1600, 1600],
        [1400, 1600],
      ]),
    ).toBe(true)
    expect(
      near(b.rings[0]!, [
        [2500, 500],
        [3000, 500],
        [3000, 900],
        [2500, 900],
      ]),
    ).toBe(true)
  })

  it('winds exterior rings clockwise and holes counter-clockwise in tile coordinates, whatever the source winding', async () => {
    const res = await getTile(t, `/tiles/parcels/${Z}/${TX}/${TY}.pbf`)
    const a = res.layers.parcels!.find((f) => f.properties.parcel_no === 101)!
    const area = (ring: { x: number; y: number }[]) => ringArea2(ring.map((p) => [p.x, p.y]))
    expect(area(a.rings[0]!)).toBeGreaterThan(0)
    expect(area(a.rings[1]!)).toBeLessThan(0)
  })

  it('clips planning zones to the tile plus its 64-unit buffer and carries their rules', async () => {
    const res = await getTile(t, `/tiles/planning/${Z}/${TX}/${TY}.pbf`)
    expect(res.status).toBe(200)
    const zone = res.layers.zones!.find((f) => f.properties.block_code === 'A1')!
    expect(zone.properties).toEqual({
      land_use_code: 'ODT',
      color: '#ffa0ff',
      block_code: 'A1',
      max_floors: 5,
      max_density_pct: 80,
      max_far: 4.5,
      plan_level: 'QHCT 1/500',
      approved_at: '2023-01-01',
      decision_no: '1/QĐ-UBND',
      // Whether this tile holds the zone's label point (written once across tiles, as a parcel's number).
      label: expect.any(Boolean),
    })
    const xs = coords(zone).map((p) => p.x)
    const ys = coords(zone).map((p) => p.y)
    expect([Math.min(...xs), Math.max(...xs), Math.min(...ys), Math.max(...ys)]).toEqual([-64, 4160, -64, 4160])
    expect(res.layers.road_reserves).toHaveLength(1)
    expect(res.layers.road_reserves![0]!.properties).toEqual({ road_name: 'Đường Thử', width_m: 20 })
  })

  it('leaves road reserves out of planning tiles below z14 but keeps the zones', async () => {
    const res = await getTile(t, `/tiles/planning/13/${TX >> 3}/${TY >> 3}.pbf`)
    expect(res.status).toBe(200)
    expect(res.layers.zones!.some((f) => f.properties.block_code === 'A1')).toBe(true)
    expect(res.layers.road_reserves).toBeUndefined()
  })

  it('keeps every coordinate of every layer within the buffered tile', async () => {
    for (const layer of ['basemap', 'planning', 'parcels']) {
      const res = await getTile(t, `/tiles/${layer}/${Z}/${TX}/${TY}.pbf`)
      for (const features of Object.values(res.layers)) {
        for (const p of features.flatMap(coords)) {
          expect(p.x).toBeGreaterThanOrEqual(-64)
          expect(p.x).toBeLessThanOrEqual(4160)
          expect(p.y).toBeGreaterThanOrEqual(-64)
          expect(p.y).toBeLessThanOrEqual(4160)
        }
      }
    }
  })

  it('draws the basemap: all streets from z14, landmarks as label points, the ward boundary as a line', async () => {
    const res = await getTile(t, `/tiles/basemap/${Z}/${TX}/${TY}.pbf`)
    expect(res.status).toBe(200)
    const streets = res.layers.streets!
    expect(streets.map((s) => s.properties.name).sort()).toEqual(['Hẻm Thử', 'Đại lộ Thử'])
    const main = streets.find((s) => s.properties.class === 'main')!
    expect(main.type).toBe(2)
    expect(main.properties.width).toBe(30)
    expect(coords(main).every((p) => Math.abs(p.y - 3000) <= 1)).toBe(true)
    const market = res.layers.landmarks!.find((f) => f.properties.name === 'Chợ Thử')!
    expect(market.type).toBe(1)
    expect(market.properties.kind).toBe('market')
    const [pt] = coords(market)
    expect(pt!.x).toBeGreaterThanOrEqual(1449)
    expect(pt!.x).toBeLessThanOrEqual(1551)
    expect(pt!.y).toBeGreaterThanOrEqual(2449)
    expect(pt!.y).toBeLessThanOrEqual(2551)
    expect(res.layers.water!.find((f) => f.properties.name === 'Kênh Thử')!.type).toBe(3)
    const ward = res.layers.ward_boundary!.find((f) => f.properties.name === 'Phường Thử')!
    expect(ward.type).toBe(2)
    expect(coords(ward).every((p) => Math.abs(p.x - 200) <= 1)).toBe(true)
  })

  it('sends only main streets in basemap tiles below z14', async () => {
    const res = await getTile(t, `/tiles/basemap/13/${TX >> 3}/${TY >> 3}.pbf`)
    expect(res.status).toBe(200)
    const names = res.layers.streets!.map((s) => s.properties.name)
    expect(names).toContain('Đại lộ Thử')
    expect(names).not.toContain('Hẻm Thử')
    expect(res.layers.landmarks).toBeUndefined()
  })

  it('answers 204 with no body for a tile without features', async () => {
    for (const layer of ['basemap', 'planning', 'parcels']) {
      const res = await getTile(t, `/tiles/${layer}/${Z}/${TX + 9}/${TY}.pbf`)
      expect(res.status).toBe(204)
      expect(res.raw.length).toBe(0)
      expect(res.headers.get('cache-control')).toBe('public, max-age=3600, stale-while-revalidate=86400')
    }
  })

  it('answers 204 for parcels below z16 even where parcels exist', async () => {
    const res = await getTile(t, `/tiles/parcels/15/${TX >> 1}/${TY >> 1}.pbf`)
    expect(res.status).toBe(204)
  })

  it('answers 400 BadRequest in the envelope for a bad z, x or y and for an unknown layer, never 500', async () => {
    const cases: [string, string][] = [
      ['/tiles/parcels/23/0/0.pbf', 'z'],
      ['/tiles/parcels/-1/0/0.pbf', 'z'],
      ['/tiles/parcels/abc/0/0.pbf', 'z'],
      ['/tiles/parcels/1.5/0/0.pbf', 'z'],
      ['/tiles/parcels/16/65536/0.pbf', 'x'],
      ['/tiles/parcels/16/0/65536.pbf', 'y'],
      ['/tiles/parcels/0/1/0.pbf', 'x'],
      ['/tiles/parcels/22/99999999999/0.pbf', 'x'],
      ['/tiles/parcels/3/0/0x1.pbf', 'y'],
      ['/tiles/parcels/3/0/.pbf', 'y'],
      ['/tiles/roads/3/0/0.pbf', 'layer'],
    ]
    for (const [path, field] of cases) {
      const res = await t.request(path)
      expect(res.status, path).toBe(400)
      expect(res.body.meta).toEqual({ code: 'BadRequest', status: 'NG' })
      expect(Object.keys(res.body.errors), path).toContain(field)
    }
  })

  it('gzips the tile when the client accepts gzip and sends it plain when it does not', async () => {
    const path = `/tiles/parcels/${Z}/${TX}/${TY}.pbf`
    const zipped = await getTile(t, path, { 'accept-encoding': 'br, gzip' })
    expect(zipped.headers.get('content-encoding')).toBe('gzip')
    expect(zipped.headers.get('vary')).toBe('Accept-Encoding')
    const plain = await getTile(t, path, { 'accept-encoding': 'gzip;q=0, identity' })
    expect(plain.headers.get('content-encoding')).toBeNull()
    expect([zipped.raw[0], zipped.raw[1]]).toEqual([0x1f, 0x8b])
    expect(zipped.layers).toEqual(plain.layers)
  })

  it('answers 304 for a matching If-None-Match, with the caching headers', async () => {
    const path = `/tiles/planning/${Z}/${TX}/${TY}.pbf`
    const first = await getTile(t, path)
    const etag = first.headers.get('etag')!
    expect(etag).toMatch(/^W\/"\d+-planning-16-\d+-\d+"$/)
    expect(first.headers.get('cache-control')).toBe('public, max-age=3600, stale-while-revalidate=86400')
    const again = await getTile(t, path, { 'if-none-match': etag })
    expect(again.status).toBe(304)
    expect(again.raw.length).toBe(0)
    expect(again.headers.get('etag')).toBe(etag)
    const other = await getTile(t, path, { 'if-none-match': 'W/"0-planning-16-0-0"' })
    expect(other.status).toBe(200)
  })

  it('draws a newer plan of a level over the older one it replaces, and a detailed plan over a newer broader one', async () => {
    const plan = async (level: string, decision: string, approved: string) =>
      (
        await db.query<{ id: number }>(
          `insert into plans (dataset_id, name, level, decision_no, approved_at) values ($1, 'Thử', $2, $3, $4) returning id::float8 as id`,
          [dataset, level, decision, approved],
        )
      )[0]!.id
    const older = await plan('QHCT 1/500', '0/QĐ-UBND', '2015-01-01')
    const broader = await plan('QHPK 1/2000', '9/QĐ-UBND', '2026-01-01')
    await db.transaction(async (tx) => {
      for (const [id, block] of [
        [older, 'OLD'],
        [broader, 'PK'],
      ] as const)
        await tx.query(
          `insert into planning_zones (dataset_id, plan_id, block_code, land_use_code, geom) values ($1, $2, $3, 'TMD', ST_Multi(ST_SetSRID(ST_GeomFromGeoJSON($4), 4326)))`,
          [dataset, id, block, geo({ type: 'Polygon', coordinates: [box(1000, 1000, 3000, 3000)] })],
        )
      await bumpDataVersion(tx)
    })
    // The version is re-read at most once per second of the server's clock.
    t.clock.now = new Date(t.clock.now.getTime() + 1500)
    try {
      const res = await getTile(t, `/tiles/planning/${Z}/${TX}/${TY}.pbf`)
      // Bottom to top, the order a client draws them in.
      expect(res.layers.zones!.map((f) => f.properties.block_code)).toEqual(['PK', 'OLD', 'A1'])
    } finally {
      await db.transaction(async (tx) => {
        await tx.query('delete from plans where id = any($1::bigint[])', [[older, broader]])
        await bumpDataVersion(tx)
      })
      t.clock.now = new Date(t.clock.now.getTime() + 1500)
    }
  })

  it('serves the cached tile until bumpDataVersion, then the new data under a new ETag', async () => {
    const x = TX + 2
    const path = `/tiles/parcels/${Z}/${x}/${TY}.pbf`
    const before = await getTile(t, path)
    expect(before.status).toBe(204)
    await db.query(
      `insert into parcels (dataset_id, province, ward, sheet_no, parcel_no, area_m2, geom)
       values ($1, 'Tỉnh Thử', 'Phường Thử', 8, 1, 100, ST_Multi(ST_SetSRID(ST_GeomFromGeoJSON($2), 4326)))`,
      [
        dataset,
        geo({
          type: 'Polygon',
          coordinates: [
            [lngLat(100, 100, Z, x), lngLat(900, 100, Z, x), lngLat(900, 900, Z, x), lngLat(100, 100, Z, x)],
          ],
        }),
      ],
    )
    // Without a version bump the cache still answers; that is what the bump is for.
    expect((await getTile(t, path)).status).toBe(204)
    await db.transaction((tx) => bumpDataVersion(tx))
    // The version is re-read at most once per second of the server's clock.
    t.clock.now = new Date(t.clock.now.getTime() + 1500)
    const after = await getTile(t, path, { 'if-none-match': before.headers.get('etag')! })
    expect(after.status).toBe(200)
    expect(after.headers.get('etag')).not.toBe(before.headers.get('etag'))
    expect(after.layers.parcels!.map((f) => f.properties.sheet_no)).toEqual([8])
  })

  it('writes tiles with ST_AsMVT on PostgreSQL that decode to the same features as the Node encoder', async (ctx) => {
    if ((await tileEncoder(db)) !== 'native') return ctx.skip()
    let compared = 0
    for (const [layer, z, x, y] of [
      ['parcels', Z, TX, TY],
      ['planning', Z, TX, TY],
      ['planning', 13, TX >> 3, TY >> 3],
      ['basemap', Z, TX, TY],
      ['basemap', 13, TX >> 3, TY >> 3],
    ] as const) {
      const node = await renderTile(db, tileSets[layer], z, x, y, 'node')
      const native = await renderTile(db, tileSets[layer], z, x, y, 'native')
      expect(node, `${layer}/${z}`).not.toBeNull()
      const a = decode(node!)
      const b = decode(native!)
      expect(Object.keys(b), `${layer}/${z}`).toEqual(Object.keys(a))
      for (const name of Object.keys(a)) {
        const fa = a[name]!
        const fb = b[name]!
        expect(
          fb.map((f) => [f.id, f.type, f.properties]),
          `${layer}/${z} ${name}`,
        ).toEqual(fa.map((f) => [f.id, f.type, f.properties]))
        // The same shapes: bounding boxes in tile units within a unit or two (each encoder snaps and simplifies its own way).
        const bounds = (f: Decoded[string][number]) => {
          const pts = coords(f)
          return [
            Math.min(...pts.map((p) => p.x)),
            Math.min(...pts.map((p) => p.y)),
            Math.max(...pts.map((p) => p.x)),
            Math.max(...pts.map((p) => p.y)),
          ]
        }
        fa.forEach((f, i) =>
          bounds(fb[i]!).forEach((v, k) =>
            expect(Math.abs(v - bounds(f)[k]!), `${layer}/${z} ${name} #${i}`).toBeLessThanOrEqual(2),
          ),
        )
        compared += fa.length
      }
    }
    expect(compared).toBeGreaterThan(8)
  })

  it('packs every tile of a box, zooms and layers in order, each byte-identical to its single tile, with its length and CRC checked', async () => {
    // Three columns at z16 (the test tile, an empty one and the next), both zooms 15–16, two layers.
    const range = { z: Z, minX: TX, maxX: TX + 2, minY: TY, maxY: TY }
    const bbox = rangeBbox(range).join(',')
    const res = await t.app.request(`/tiles/pack?bbox=${bbox}&zooms=15-16&layers=parcels,planning`)
    expect(res.status).toBe(200)
    expect(res.headers.get('content-type')).toBe('application/vnd.qh.tile-pack')
    expect(res.headers.get('content-encoding')).toBeNull()
    const read: { header?: PackHeader; entries: PackEntry[] } = { entries: [] }
    for await (const item of readPack(res.body!)) {
      if ('entries' in item) read.header = item
      else read.entries.push(item)
    }
    const at15 = { x: TX >> 1, y: TY >> 1 }
    const x15 = [...new Set([TX, TX + 1, TX + 2].map((x) => x >> 1))]
    const expected = [
      ...['parcels', 'planning'].flatMap((layer) => x15.map((x) => `${layer}/15/${x}/${at15.y}`)),
      ...['parcels', 'planning'].flatMap((layer) => [TX, TX + 1, TX + 2].map((x) => `${layer}/16/${x}/${TY}`)),
    ]
    expect(read.entries.map((e) => `${e.layer}/${e.z}/${e.x}/${e.y}`)).toEqual(expected)
    expect(read.header?.entries).toBe(expected.length)
    for (const e of read.entries) {
      const single = await t.app.request(`/tiles/${e.layer}/${e.z}/${e.x}/${e.y}.pbf`, {
        headers: { 'accept-encoding': 'identity' },
      })
      expect(single.headers.get('etag')).toBe(tileEtag(read.header!.version, e.layer, e.z, e.x, e.y))
      if (single.status === 204) expect(e.tile, `${e.layer}/${e.z}/${e.x}`).toBeNull()
      else expect(e.tile, `${e.layer}/${e.z}/${e.x}`).toEqual(new Uint8Array(await single.arrayBuffer()))
    }
    expect(read.entries.find((e) => e.layer === 'parcels' && e.z === 16 && e.x === TX)?.tile).not.toBeNull()
    expect(read.entries.filter((e) => e.z === 15 && e.layer === 'parcels').every((e) => e.tile === null)).toBe(true)

    // The pack's ETag is the data version's: asked again with it, nothing is rendered or sent.
    const again = await t.app.request(`/tiles/pack?bbox=${bbox}&zooms=15-16&layers=parcels,planning`, {
      headers: { 'if-none-match': res.headers.get('etag')! },
    })
    expect(again.status).toBe(304)
  })

  it('refuses a pack over 256 tiles and bad pack parameters with 400 in the envelope', async () => {
    const cases: [string, string][] = [
      ['bbox=106.6,10.7,106.8,10.9&zooms=18&layers=parcels', 'bbox'],
      ['bbox=106.8,10.7,106.6,10.9&zooms=16&layers=parcels', 'bbox'],
      ['bbox=1,2,3&zooms=16&layers=parcels', 'bbox'],
      ['bbox=106.6,10.7,106.61,10.71&zooms=23&layers=parcels', 'zooms'],
      ['bbox=106.6,10.7,106.61,10.71&zooms=a&layers=parcels', 'zooms'],
      ['bbox=106.6,10.7,106.61,10.71&zooms=16&layers=roads', 'layers'],
      ['zooms=16&layers=parcels', 'bbox'],
    ]
    for (const [query, field] of cases) {
      const res = await t.request(`/tiles/pack?${query}`)
      expect(res.status, query).toBe(400)
      expect(res.body.meta).toEqual({ code: 'BadRequest', status: 'NG' })
      expect(Object.keys(res.body.errors), query).toContain(field)
    }
  })

  it('marks a parcel across two tiles for labelling in one of them only, so its number is drawn once', async () => {
    // Three tiles east of the others (no other feature there), straddling the edge between TX+3 and TX+4.
    const at = (px: number, py: number) => lngLat(px, py, Z, TX + 3, TY)
    const ring = [at(3000, 2000), at(5000, 2000), at(5000, 1000), at(3000, 1000), at(3000, 2000)]
    await db.query(
      `insert into parcels (dataset_id, province, ward, sheet_no, parcel_no, area_m2, geom)
       values ($1, 'Tỉnh Thử', 'Phường Thử', 8, 901, 100, ST_Multi(ST_SetSRID(ST_GeomFromGeoJSON($2), 4326)))`,
      [dataset, geo({ type: 'Polygon', coordinates: [ring] })],
    )
    const pieces = []
    for (const x of [TX + 3, TX + 4]) {
      const res = await getTile(t, `/tiles/parcels/${Z}/${x}/${TY}.pbf`)
      pieces.push(...(res.layers.parcels ?? []).filter((f) => f.properties.parcel_no === 901))
    }
    expect(pieces).toHaveLength(2)
    expect(pieces.map((f) => f.properties.label).sort()).toEqual([false, true])
  })

  it('describes each tile set in TileJSON 3.0.0 with tile URLs, bounds, dated attribution and fields', async () => {
    const res = await t.request('/tiles/parcels.json')
    expect(res.status).toBe(200)
    const tj = tileJson.parse(res.body)
    expect(tj.tiles).toEqual(['/tiles/parcels/{z}/{x}/{y}.pbf'])
    expect([tj.minzoom, tj.maxzoom]).toEqual([16, 20])
    const [w, s, e, nn] = tj.bounds
    const sw = lngLat(0, 4096)
    const ne = lngLat(4096, 0)
    expect(w).toBeLessThanOrEqual(sw[0] + 1e-9)
    expect(s).toBeLessThanOrEqual(sw[1] + 1e-9)
    expect(e).toBeGreaterThanOrEqual(ne[0] - 1e-9)
    expect(nn).toBeGreaterThanOrEqual(ne[1] - 1e-9)
    expect(tj.center[2]).toBe(16)
    expect(tj.attribution).toContain(
      'Bộ dữ liệu thử bản đồ — nguồn: Kiểm thử tự động, ngày dữ liệu 15/03/2024 (Dữ liệu mô phỏng)',
    )
    expect(tj.data_date! >= '2024-03-15').toBe(true)
    expect(tj.vector_layers).toEqual([
      expect.objectContaining({
        id: 'parcels',
        minzoom: 16,
        maxzoom: 20,
        fields: expect.objectContaining({ sheet_no: expect.any(String), parcel_no: expect.any(String) }),
      }),
    ])
    const planning = tileJson.parse((await t.request('/tiles/planning.json')).body)
    expect(planning.vector_layers.map((l) => [l.id, l.minzoom])).toEqual([
      ['zones', 12],
      ['road_reserves', 14],
    ])
    const basemap = tileJson.parse((await t.request('/tiles/basemap.json')).body)
    expect(basemap.vector_layers.map((l) => l.id).sort()).toEqual([
      'admin_boundaries',
      'admin_labels',
      'blocks',
      'green',
      'landmarks',
      'landuse',
      'places',
      'streets',
      'ward_boundary',
      'water',
    ])
  })

  it('starts tile URLs with PUBLIC_URL when it is set, whatever Host or X-Forwarded-Host say', async () => {
    const pub = await createTestApp({ PUBLIC_URL: 'https://quyhoach.example.vn/', TRUST_PROXY: 'true' })
    const res = await pub.request('http://evil.example/tiles/basemap.json', {
      headers: { host: 'evil.example', 'x-forwarded-host': 'evil.example' },
    })
    expect(res.body.tiles).toEqual(['https://quyhoach.example.vn/tiles/basemap/{z}/{x}/{y}.pbf'])
  })

  it('answers tile URLs relative to the server without PUBLIC_URL, so no Host a client sends reaches a cached TileJSON', async () => {
    for (const trust of ['false', 'true']) {
      const app = await createTestApp({ TRUST_PROXY: trust })
      for (const path of ['/tiles/parcels.json', '/tiles/overlays.json']) {
        const res = await app.request(`http://evil.example${path}`, {
          headers: { host: 'evil.example', 'x-forwarded-host': 'evil.example', 'x-forwarded-proto': 'https' },
        })
        expect(res.status).toBe(200)
        expect(res.headers.get('cache-control')).toBe('public, max-age=60')
        expect(JSON.stringify(res.body)).not.toContain('evil.example')
      }
    }
  })

  it('answers 404 NotFound in the envelope for an unknown tile set', async () => {
    const res = await t.request('/tiles/roads.json')
    expect(res.status).toBe(404)
    expect(res.body.meta).toEqual({ code: 'NotFound', status: 'NG' })
  })
})

describe('tile request headers', () => {
  it('matches If-None-Match weakly, in lists and with *', () => {
    expect(etagMatches('W/"3-parcels-16-1-2"', 'W/"3-parcels-16-1-2"')).toBe(true)
    expect(etagMatches('"3-parcels-16-1-2"', 'W/"3-parcels-16-1-2"')).toBe(true)
    expect(etagMatches('W/"x", W/"3-parcels-16-1-2"', 'W/"3-parcels-16-1-2"')).toBe(true)
    expect(etagMatches('*', 'W/"3-parcels-16-1-2"')).toBe(true)
    expect(etagMatches('W/"2-parcels-16-1-2"', 'W/"3-parcels-16-1-2"')).toBe(false)
    expect(etagMatches(undefined, 'W/"3-parcels-16-1-2"')).toBe(false)
  })

  it('accepts gzip unless the client leaves it out or gives it q=0', () => {
    expect(acceptsGzip('gzip, deflate, br')).toBe(true)
    expect(acceptsGzip('br;q=1, gzip;q=0.5')).toBe(true)
    expect(acceptsGzip('*')).toBe(true)
    expect(acceptsGzip('gzip;q=0, *')).toBe(false)
    expect(acceptsGzip('br, identity')).toBe(false)
    expect(acceptsGzip(undefined)).toBe(false)
  })
})
