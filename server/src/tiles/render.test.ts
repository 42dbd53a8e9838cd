import { VectorTile } from '@mapbox/vector-tile'
import { PbfReader } from 'pbf'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { tileLayerIds } from '#core/contract/tiles.ts'
import { tileCorner } from '#core/offline/tile-grid.ts'
import type { Database } from '../db/database.ts'
import { testDb } from '../testing/test-app.ts'
import { tileSets } from './layers.ts'
import { renderTile } from './render.ts'
import { createTileService } from './service.ts'
import { bumpDataVersion } from './version.ts'

// Two by two z16 tiles in the open Pacific, where no other test's data can be.
const Z = 16
const X0 = 5000
const Y0 = 40000

/** [lng, lat] of a point given in z16 tile units from the area's north-west corner. */
function at(u: number, v: number): [number, number] {
  const c = tileCorner(Z, X0 + u / 4096, Y0 + v / 4096)
  return [c.lng, c.lat]
}

const ring = (pts: [number, number][]) => [...pts, pts[0]!].map(([u, v]) => at(u, v))

/** A fixed pseudo-random sequence, so every run draws the same data. */
function random(seed: number): () => number {
  let s = seed
  return () => {
    s = (s * 1103515245 + 12345) % 2 ** 31
    return s / 2 ** 31
  }
}

describe('tiles cut from the rows of a rectangle', () => {
  let db: Database
  const dataset = `render-test-${Date.now().toString(36)}${Math.random().toString(36).slice(2, 6)}`

  beforeAll(async () => {
    db = await testDb()
    const [w, n] = at(-500, -500)
    const [e, s] = at(8692, 8692)
    await db.query(
      `insert into datasets (id, kind, name, source, data_date, crs, bounds, is_simulated)
       values ($1, 'demo', 'Bộ dữ liệu thử cắt ô', 'Kiểm thử tự động', '2024-03-15', 'EPSG:4326', ST_MakeEnvelope($2, $3, $4, $5, 4326), true)`,
      [dataset, w, s, e, n],
    )
    const geo = (g: object) => JSON.stringify(g)
    const next = random(7)
    // Parcels all over the area, many across tile edges, some with a hole, one of two parts; all inside the area.
    for (let i = 0; i < 150; i++) {
      const u = 100 + next() * 7400
      const v = 100 + next() * 7400
      const du = 20 + next() * 600
      const dv = 20 + next() * 600
      const shell = ring([
        [u, v],
        [u + du, v + dv * 0.1],
        [u + du * 0.9, v + dv],
        [u - du * 0.1, v + dv * 0.8],
      ])
      const rings =
        i % 10 === 0
          ? [
              shell,
              ring([
                [u + du * 0.3, v + dv * 0.3],
                [u + du * 0.3, v + dv * 0.6],
                [u + du * 0.6, v + dv * 0.6],
                [u + du * 0.6, v + dv * 0.3],
              ]),
            ]
          : [shell]
      const polygons =
        i === 5
          ? [
              rings,
              [
                ring([
                  [100, 100],
                  [140, 100],
                  [140, 140],
                ]),
              ],
            ]
          : [rings]
      const [row] = await db.query<{ id: number }>(
        `insert into parcels (dataset_id, province, ward, sheet_no, parcel_no, area_m2, geom)
         values ($1, 'Tỉnh Thử', 'Phường Thử', 1, $2, 100, ST_SetSRID(ST_GeomFromGeoJSON($3), 4326)) returning id::float8 as id`,
        [dataset, i + 1, geo({ type: 'MultiPolygon', coordinates: polygons })],
      )
      await db.query('insert into parcel_land_use (parcel_id, code, area_m2) values ($1, $2, 50)', [
        row!.id,
        i % 3 === 0 ? 'ODT' : 'TMD',
      ])
    }
    const street = (name: string, cls: string, pts: [number, number][]) =>
      db.query(
        `insert into streets (dataset_id, name, class, width_m, province, geom) values ($1, $2, $3, 10, 'Tỉnh Thử', ST_SetSRID(ST_GeomFromGeoJSON($4), 4326))`,
        [dataset, name, cls, geo({ type: 'LineString', coordinates: pts.map(([u, v]) => at(u, v)) })],
      )
    await street('Đường Chéo', 'main', [
      [-300, -300],
      [9000, 8000],
    ])
    // Leaves the area's first tile and comes back into it.
    await street('Hẻm Vòng', 'alley', [
      [3000, 1000],
      [5000, 1200],
      [5000, 2000],
      [3000, 2200],
    ])
    for (const [name, u, v] of [
      ['Chợ Góc', 4096, 4096],
      ['Trường Cạnh', 4096, 1500],
      ['Đình', 2000, 6000],
    ] as const) {
      await db.query(
        `insert into base_features (dataset_id, kind, name, subkind, geom) values ($1, 'landmark', $2, 'market', ST_SetSRID(ST_GeomFromGeoJSON($3), 4326))`,
        [dataset, name, geo({ type: 'Point', coordinates: at(u, v) })],
      )
    }
    const [plan] = await db.query<{ id: number }>(
      `insert into plans (dataset_id, name, level, decision_no, approved_at) values ($1, 'QHCT cắt ô', 'QHCT 1/500', '2/QĐ-UBND', '2023-01-01') returning id::float8 as id`,
      [dataset],
    )
    await db.query(
      `insert into planning_zones (dataset_id, plan_id, block_code, land_use_code, max_density_pct, max_floors, max_far, geom)
       values ($1, $2, 'B1', 'ODT', 80, 5, 4.5, ST_Multi(ST_SetSRID(ST_GeomFromGeoJSON($3), 4326)))`,
      [
        dataset,
        plan!.id,
        geo({
          type: 'Polygon',
          coordinates: [
            ring([
              [-2000, -2000],
              [10000, -1000],
              [9000, 10000],
              [-1000, 9000],
            ]),
          ],
        }),
      ],
    )
    await db.transaction((tx) => bumpDataVersion(tx))
  })

  afterAll(async () => {
    await db.transaction(async (tx) => {
      await tx.query('delete from datasets where id = $1', [dataset])
      await bumpDataVersion(tx)
    })
  })

  it('gives every tile of z15–18 the same bytes from a pack as from its own statement', async () => {
    const packs = createTileService(db, () => new Date(0))
    const v = await packs.version()
    let compared = 0
    let withFeatures = 0
    // As an area download asks: zoom by zoom, each layer's rectangle, so deeper zooms are cut from kept rows.
    for (let z = 15; z <= 18; z++) {
      const k = 2 ** (z - Z)
      const range = {
        z,
        minX: Math.floor(X0 * k),
        maxX: Math.floor((X0 + 2) * k - 1),
        minY: Math.floor(Y0 * k),
        maxY: Math.floor((Y0 + 2) * k - 1),
      }
      for (const layer of tileLayerIds) {
        const tiles = await packs.tiles(v, layer, range)
        let i = 0
        for (let y = range.minY; y <= range.maxY; y++) {
          for (let x = range.minX; x <= range.maxX; x++) {
            const alone = await renderTile(db, tileSets[layer], z, x, y)
            expect(tiles[i++]?.pbf ?? null, `${layer}/${z}/${x}/${y}`).toEqual(alone)
            compared++
            if (alone) withFeatures++
          }
        }
      }
    }
    expect(compared).toBe(3 * (1 + 4 + 16 + 64))
    expect(withFeatures).toBeGreaterThan(150)
  })

  it('labels each parcel in exactly one tile of each zoom', async () => {
    for (let z = 16; z <= 18; z++) {
      const k = 2 ** (z - Z)
      const labels = new Map<number, number>()
      for (let y = Y0 * k; y < (Y0 + 2) * k; y++) {
        for (let x = X0 * k; x < (X0 + 2) * k; x++) {
          const pbf = await renderTile(db, tileSets.parcels, z, x, y)
          const layer = pbf && new VectorTile(new PbfReader(pbf)).layers.parcels
          for (let i = 0; i < (layer?.length ?? 0); i++) {
            const f = layer!.feature(i)
            labels.set(f.id!, (labels.get(f.id!) ?? 0) + (f.properties.label === true ? 1 : 0))
          }
        }
      }
      expect(labels.size, `z${z}`).toBe(150)
      expect(
        [...labels.values()].every((n) => n === 1),
        `z${z}`,
      ).toBe(true)
    }
  })
})
