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

  it('renders the uncached tiles of a rectangle in one statement', async () => {
    const { db, counts } = await countingDb()
    const service = createTileService(db, () => new Date(0))
    const v = await service.version()
    expect(await service.tiles(v, 'parcels', { z: 16, minX: 200, maxX: 201, minY: 300, maxY: 301 })).toHaveLength(4)
    expect(counts.tiles).toBe(1)
    // Only the tiles not cached yet are asked for.
    await service.tiles(v, 'parcels', { z: 16, minX: 200, maxX: 202, minY: 300, maxY: 300 })
    expect(counts.tiles).toBe(2)
    await service.tile(v, 'parcels', 16, 202, 300)
    expect(counts.tiles).toBe(2)
  })
})
