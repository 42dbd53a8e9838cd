import { describe, expect, it } from 'vitest'
import type { Queryable } from '../db/database.ts'
import { testDb } from '../testing/test-app.ts'
import { createTileService } from './service.ts'
import { bumpDataVersion, readDataVersion } from './version.ts'

/** The shared test database, counting the statements that reach it: tile rows, and data version reads. */
async function countingDb() {
  const inner = await testDb()
  const counts = { tiles: 0, versions: 0 }
  const db: Queryable = {
    query: (sql, params, opts) => {
      if (sql.includes('from data_version')) counts.versions++
      else counts.tiles++
      return inner.query(sql, params, opts)
    },
    exec: (sql) => inner.exec(sql),
  }
  return { db, counts, inner }
}

describe('tile service', () => {
  it('renders a tile once for concurrent requests and answers repeats from memory', async () => {
    const { db, counts } = await countingDb()
    const service = createTileService(db, () => new Date(0))
    const v = await service.version()
    const tiles = await Promise.all(Array.from({ length: 5 }, () => service.tile(v, 'basemap', 12, 100, 100)))
    await service.tile(v, 'basemap', 12, 100, 100)
    expect(counts.tiles).toBe(1)
    expect(new Set(tiles).size).toBe(1)
  })

  it('reads the data version at most once per second of its clock, and drops cached tiles when it changes', async () => {
    const { db, counts, inner } = await countingDb()
    const clock = { now: 1_000_000 }
    const service = createTileService(db, () => new Date(clock.now))
    const v1 = await service.version()
    await service.tile(v1, 'planning', 13, 7, 7)
    clock.now += 999
    expect(await service.version()).toBe(v1)
    expect(counts.versions).toBe(1)
    const v2 = await inner.transaction((tx) => bumpDataVersion(tx))
    expect(v2).toBe(v1 + 1)
    expect(await service.version()).toBe(v1)
    clock.now += 1
    expect(await service.version()).toBe(v2)
    expect(await readDataVersion(inner)).toBe(v2)
    await service.tile(v2, 'planning', 13, 7, 7)
    expect(counts.tiles).toBe(2)
  })

  it('renders the uncached tiles of a rectangle in one statement and cuts deeper zooms inside it from the same rows', async () => {
    const { db, counts } = await countingDb()
    const service = createTileService(db, () => new Date(0))
    const v = await service.version()
    const z16 = { z: 16, minX: 200, maxX: 201, minY: 300, maxY: 301 }
    expect(await service.tiles(v, 'parcels', z16)).toHaveLength(4)
    expect(counts.tiles).toBe(1)
    // Every parcels zoom from 16 on selects the same rows: z17 and z18 inside the rectangle need no statement.
    await service.tiles(v, 'parcels', { z: 17, minX: 400, maxX: 403, minY: 600, maxY: 603 })
    await service.tile(v, 'parcels', 18, 807, 1207)
    expect(counts.tiles).toBe(1)
    // A map's single tile outside them is read alone, and its rows are not kept for the zoom below it.
    await service.tile(v, 'parcels', 16, 210, 300)
    await service.tile(v, 'parcels', 17, 420, 600)
    expect(counts.tiles).toBe(3)
    // Basemap rows of z13 do not serve z14, which also selects blocks, landmarks and every street.
    await service.tiles(v, 'basemap', { z: 13, minX: 25, maxX: 25, minY: 37, maxY: 37 })
    await service.tiles(v, 'basemap', { z: 14, minX: 50, maxX: 51, minY: 74, maxY: 75 })
    expect(counts.tiles).toBe(5)
  })

  it('drops the kept rows with the tiles when the data version changes', async () => {
    const { db, counts, inner } = await countingDb()
    const clock = { now: 5_000_000 }
    const service = createTileService(db, () => new Date(clock.now))
    const v1 = await service.version()
    await service.tiles(v1, 'planning', { z: 14, minX: 10, maxX: 11, minY: 10, maxY: 11 })
    const v2 = await inner.transaction((tx) => bumpDataVersion(tx))
    clock.now += 1000
    expect(await service.version()).toBe(v2)
    await service.tile(v2, 'planning', 15, 20, 20)
    expect(counts.tiles).toBe(2)
  })
})
