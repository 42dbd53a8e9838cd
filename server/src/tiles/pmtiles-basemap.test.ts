import { mkdtempSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { VectorTile } from '@mapbox/vector-tile'
import { PbfReader } from 'pbf'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { tileJson } from '#core/contract/tiles.ts'
import { writePmtiles } from '../../../tests/support/pmtiles-archive.ts'
import { createTestApp, type TestApp } from '../testing/test-app.ts'
import { encodeTile } from './mvt.ts'

const [Z, X, Y] = [14, 13_050, 7_640]
const BOUNDS: [number, number, number, number] = [106.6, 10.7, 106.8, 10.9]
let t: TestApp
let dir: string

beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), 'qh-pmtiles-'))
  const street = encodeTile([
    {
      name: 'streets',
      features: [
        {
          type: 2,
          geometry: [
            [
              [100, 100],
              [4000, 3900],
            ],
          ],
          tags: { name: 'Đường Từ PMTiles', class: 'main' },
        },
      ],
    },
  ])!
  const file = join(dir, 'nen.pmtiles')
  writeFileSync(
    file,
    writePmtiles(
      [{ z: Z, x: X, y: Y, data: street }],
      {
        attribution: '© Bản đồ nền thử',
        vector_layers: [{ id: 'streets', fields: { name: 'String' }, minzoom: 14, maxzoom: 14 }],
      },
      BOUNDS,
    ),
  )
  t = await createTestApp({ BASEMAP_PMTILES: file })
}, 240_000)

afterAll(() => rmSync(dir, { recursive: true, force: true }))

describe('a PMTiles archive as the basemap (BASEMAP_PMTILES)', () => {
  it('serves the archive’s tiles at the basemap’s own URL, 204 where it has none, and describes it in the basemap TileJSON', async () => {
    const res = await t.app.request(`/tiles/basemap/${Z}/${X}/${Y}.pbf`)
    expect(res.status).toBe(200)
    expect(res.headers.get('etag')).toBeTruthy()
    const tile = new VectorTile(new PbfReader(new Uint8Array(await res.arrayBuffer())))
    expect(Object.keys(tile.layers)).toEqual(['streets'])
    expect(tile.layers.streets!.feature(0).properties).toEqual({ name: 'Đường Từ PMTiles', class: 'main' })

    expect((await t.app.request(`/tiles/basemap/${Z}/${X + 1}/${Y}.pbf`)).status).toBe(204)
    // The other layers still come from the database.
    expect((await t.app.request(`/tiles/planning/${Z}/${X}/${Y}.pbf`)).status).not.toBe(500)

    const tj = tileJson.parse((await t.request('/tiles/basemap.json')).body)
    expect(tj.bounds).toEqual(BOUNDS)
    expect([tj.minzoom, tj.maxzoom]).toEqual([14, 14])
    expect(tj.attribution).toBe('© Bản đồ nền thử')
    expect(tj.vector_layers.map((l) => l.id)).toEqual(['streets'])
    expect(tj.tiles[0]).toMatch(/\/tiles\/basemap\/\{z\}\/\{x\}\/\{y\}\.pbf$/)
  })

  it('stops start-up with one line naming BASEMAP_PMTILES when the archive is not there', async () => {
    await expect(createTestApp({ BASEMAP_PMTILES: join(dir, 'khong-co.pmtiles') })).rejects.toThrow(/BASEMAP_PMTILES/)
  })
})
