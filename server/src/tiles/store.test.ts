import { gunzipSync } from 'node:zlib'
import { beforeAll, describe, expect, it } from 'vitest'
import { tileX, tileY, type Bbox } from '#core/offline/tile-grid.ts'
import type { Database, Queryable } from '../db/database.ts'
import { createTraffic } from '../http/traffic.ts'
import { createLogger } from '../logger.ts'
import { demoLoaded } from '../testing/demo.ts'
import { tileSets } from './layers.ts'
import { BUSY_SHARE, givingWay, QUIET_MS, type Clock, type Pace } from './fill-pace.ts'
import { renderTiles, sourceRows, sourceRowsInPieces } from './render.ts'
import { createTileService } from './service.ts'
import { createTileStore } from './store.ts'
import {
  fillTileStore,
  formatTileStore,
  planFill,
  ROW_PIECES,
  startTileStoreFill,
  tileStoreStatus,
} from './store-fill.ts'
import { bumpDataVersion, readDataVersion } from './version.ts'

// One z16 tile of the demo ward: its parcels part is that tile with every tile below it to z18 (21 tiles).
const Z16 = { x: Math.floor(tileX(106.7, 16)), y: Math.floor(tileY(10.797, 16)) }
const inZ16: Bbox = [106.6995, 10.7965, 106.7005, 10.7975]
const parcelsOnly = { sets: [tileSets.parcels], bounds: [inZ16] }
const noRest: Pace = () => Promise.resolve()

let db: Database

/** The database, counting the statements that read tile rows, read the store, and write it. */
function counting(inner: Queryable) {
  const counts = { rows: 0, storeReads: 0, storeWrites: 0 }
  const wrapped: Queryable = {
    query: (sql, params, opts) => {
      if (/from tile_store\s+where|join tile_store\s/.test(sql)) counts.storeReads++
      else if (/insert into tile_store\s/.test(sql)) counts.storeWrites++
      else if (!sql.includes('data_version')) counts.rows++
      return inner.query(sql, params, opts)
    },
    exec: (sql) => inner.exec(sql),
  }
  return { db: wrapped, counts }
}

/** A clock whose time moves only when told, waking the sleepers due in turn and letting each run on. */
function fakeClock(): Clock & { advance(ms: number): Promise<void> } {
  let t = 0
  const sleepers: { at: number; wake: () => void }[] = []
  const settle = () => new Promise((r) => setImmediate(r))
  return {
    now: () => t,
    sleep: (ms) => new Promise<void>((wake) => sleepers.push({ at: t + ms, wake })),
    async advance(ms) {
      const end = t + ms
      for (;;) {
        await settle()
        sleepers.sort((a, b) => a.at - b.at)
        const next = sleepers[0]
        if (!next || next.at > end) break
        sleepers.shift()
        t = next.at
        next.wake()
      }
      t = end
      await settle()
    },
  }
}

/** A fresh data version, so each test fills a store of its own. */
const newVersion = () => db.transaction((tx) => bumpDataVersion(tx))

beforeAll(async () => {
  db = await demoLoaded()
})

describe('the tile store', () => {
  it('plans the zooms below allRowsFrom as rectangles and each tile at it as one part with every tile below it', async () => {
    const parts = await planFill(db, parcelsOnly)
    expect(parts).toEqual([{ set: 'parcels', root: { z: 16, minX: Z16.x, maxX: Z16.x, minY: Z16.y, maxY: Z16.y } }])
    const planning = await planFill(db, { sets: [tileSets.planning], bounds: [inZ16] })
    expect(planning.map((p) => ('range' in p ? p.range.z : `root ${p.root.z}`))).toEqual([12, 13, 'root 14'])
  })

  it('fills a box the size of the country only at the zooms where it spans few tiles, and nothing below z18', async () => {
    const vietnam: Bbox = [102.1, 8.4, 109.5, 23.4]
    const parts = await planFill(db, { sets: [tileSets.basemap], bounds: [vietnam] })
    const zooms = new Set(parts.map((p) => ('range' in p ? p.range.z : p.root.z)))
    expect([...zooms]).toEqual([6, 7, 8, 9, 10, 11])
    const city = await planFill(db, { sets: [tileSets.parcels], bounds: [[106.6, 10.7, 106.8, 10.9]] })
    expect(city.length).toBeGreaterThan(1000)
    expect(city.every((p) => 'root' in p && p.root.z === 16)).toBe(true)
  })

  it('serves a tile filled ahead to a server that never rendered it: one read of the store, no rows, the same bytes as rendering it', async () => {
    const version = await newVersion()
    expect(await fillTileStore(db, version, { ...parcelsOnly, pace: noRest })).toBe('filled')
    const status = await tileStoreStatus(db)
    expect(status).toMatchObject({ version, partsDone: 1, partsTotal: 1, tiles: 21, finished: true, current: true })

    const { db: watched, counts } = counting(db)
    const fromStore = createTileService(watched, () => new Date(0), { store: createTileStore(watched) })
    const z18 = { x: Z16.x * 4 + 1, y: Z16.y * 4 + 2 }
    const stored = await fromStore.tile(version, 'parcels', 18, z18.x, z18.y)
    expect(counts).toEqual({ rows: 0, storeReads: 1, storeWrites: 0 })
    const rendered = await createTileService(db, () => new Date(0)).tile(version, 'parcels', 18, z18.x, z18.y)
    expect(stored).not.toBeNull()
    expect(gunzipSync(stored!.gzip)).toEqual(Buffer.from(rendered!.pbf))
    expect(stored!.pbf).toEqual(rendered!.pbf)
  })

  it('reads the rows of a part in pieces, one statement each, and stores the same bytes as rendering each tile alone', async () => {
    const version = await newVersion()
    let statements = 0
    const rowsRead: Queryable = {
      query: (sql, params, opts) => {
        if (sql.includes('with b as')) statements++
        return db.query(sql, params, opts)
      },
      exec: (sql) => db.exec(sql),
    }
    expect(await fillTileStore(rowsRead, version, { ...parcelsOnly, pace: noRest })).toBe('filled')
    expect(statements).toBe(ROW_PIECES * ROW_PIECES)
    for (const z of [16, 17, 18]) {
      const d = 2 ** (z - 16)
      const r = { z, minX: Z16.x * d, maxX: Z16.x * d + d - 1, minY: Z16.y * d, maxY: Z16.y * d + d - 1 }
      const stored = await createTileStore(db).read(version, 'parcels', r)
      for (let y = r.minY; y <= r.maxY; y++)
        for (let x = r.minX; x <= r.maxX; x++) {
          const [alone] = await renderTiles(db, tileSets.parcels, { z, minX: x, maxX: x, minY: y, maxY: y })
          const gz = stored.get(`${x}/${y}`)
          expect(gz === null || gz === undefined ? null : new Uint8Array(gunzipSync(gz))).toEqual(alone ?? null)
        }
    }
  })

  it('reads in pieces the same rows, in the same order, as one statement over the whole box', async () => {
    const cases = [
      { set: tileSets.parcels, z: 16 },
      { set: tileSets.planning, z: 14 },
      { set: tileSets.basemap, z: 14 },
    ]
    for (const { set, z } of cases) {
      const d = 2 ** (16 - z)
      const r = {
        z,
        minX: Math.floor(Z16.x / d) - 1,
        maxX: Math.floor(Z16.x / d),
        minY: Math.floor(Z16.y / d),
        maxY: Math.floor(Z16.y / d),
      }
      const whole = await sourceRows(db, set, r)
      const waits: number[] = []
      const pieces = await sourceRowsInPieces(db, set, r, 3, async (ms) => void waits.push(ms))
      expect(whole.length).toBeGreaterThan(0)
      expect(waits.length).toBe(9)
      expect(pieces.map((row) => `${row.layer}/${row.fid}`)).toEqual(whole.map((row) => `${row.layer}/${row.fid}`))
      expect(pieces).toEqual(whole)
    }
  })

  it('reads the stored tiles that requests ask for at once in one statement, each the bytes rendering it gives', async () => {
    const version = await newVersion()
    await fillTileStore(db, version, { ...parcelsOnly, pace: noRest })
    const { db: watched, counts } = counting(db)
    const fromStore = createTileService(watched, () => new Date(0), { store: createTileStore(watched) })
    const asked = [0, 1, 2, 3].map((i) => ({ x: Z16.x * 4 + i, y: Z16.y * 4 + i }))
    // One of them not stored (outside the part filled): rendered, and stored, as before.
    const outside = { x: Z16.x * 4 + 4, y: Z16.y * 4 }
    const tiles = await Promise.all([...asked, outside].map((t) => fromStore.tile(version, 'parcels', 18, t.x, t.y)))
    expect(counts).toMatchObject({ storeReads: 1, rows: 1 })
    const renderer = createTileService(db, () => new Date(0))
    for (const [i, t] of [...asked, outside].entries()) {
      const rendered = await renderer.tile(version, 'parcels', 18, t.x, t.y)
      expect(tiles[i]?.pbf ?? null).toEqual(rendered?.pbf ?? null)
    }
  })

  it('stores what it renders on demand, and a later server reads it from there', async () => {
    const version = await newVersion()
    const first = counting(db)
    const service = createTileService(first.db, () => new Date(0), { store: createTileStore(first.db) })
    const tile = await service.tile(version, 'parcels', 17, Z16.x * 2, Z16.y * 2)
    expect(first.counts).toMatchObject({ rows: 1, storeReads: 1 })
    // Written behind the answer: the tile is in the store once that statement has committed.
    await expect
      .poll(
        async () =>
          (
            await createTileStore(db).read(version, 'parcels', {
              z: 17,
              minX: Z16.x * 2,
              maxX: Z16.x * 2,
              minY: Z16.y * 2,
              maxY: Z16.y * 2,
            })
          ).size,
      )
      .toBe(1)
    expect(first.counts.storeWrites).toBe(1)
    const later = counting(db)
    const again = createTileService(later.db, () => new Date(0), { store: createTileStore(later.db) })
    const same = await again.tile(version, 'parcels', 17, Z16.x * 2, Z16.y * 2)
    expect(later.counts).toEqual({ rows: 0, storeReads: 1, storeWrites: 0 })
    expect(same?.gzip).toEqual(tile?.gzip)
  })

  it('resumes a fill cut short at the part it reached, and lets one process fill while another finds it held', async () => {
    const version = await newVersion()
    const bounds: Bbox[] = [[106.6995, 10.7965, 106.7095, 10.7975]]
    const two = { sets: [tileSets.parcels], bounds, pace: noRest }
    expect((await planFill(db, two)).length).toBe(2)
    let parts = 0
    const cut = await fillTileStore(db, version, {
      ...two,
      owner: 'a',
      stop: () => parts > 0,
      onProgress: () => parts++,
    })
    expect(cut).toBe('stopped')
    expect(await tileStoreStatus(db)).toMatchObject({ version, partsDone: 1, partsTotal: 2, finished: false })
    // Another process while "a" holds the lease: it leaves the fill to "a".
    expect(await fillTileStore(db, version, { ...two, owner: 'b' })).toBe('held')
    const seen: number[] = []
    expect(await fillTileStore(db, version, { ...two, owner: 'a', onProgress: (p) => seen.push(p.partsDone) })).toBe(
      'filled',
    )
    expect(seen).toEqual([2])
    expect(await tileStoreStatus(db)).toMatchObject({ version, partsDone: 2, partsTotal: 2, finished: true })
    expect(await fillTileStore(db, version, { ...two, owner: 'b' })).toBe('filled')
  })

  it('deletes the tiles of older versions once a newer one is filled', async () => {
    const older = await newVersion()
    await fillTileStore(db, older, { ...parcelsOnly, pace: noRest })
    const newer = await newVersion()
    await fillTileStore(db, newer, { ...parcelsOnly, pace: noRest })
    const [row] = await db.query<{ older: number; newer: number }>(
      'select count(*) filter (where version = $1)::int as older, count(*) filter (where version = $2)::int as newer from tile_store',
      [older, newer],
    )
    expect(row).toEqual({ older: 0, newer: 21 })
  })

  it('lets a lookup through while it fills: the lookup answers long before the fill ends', async () => {
    const version = await newVersion()
    let fillDone = false
    const fill = fillTileStore(db, version, parcelsOnly).then(() => (fillDone = true))
    await db.query(
      `select count(*) from parcels where ST_Contains(geom, ST_SetSRID(ST_MakePoint(106.7, 10.797), 4326))`,
    )
    expect(fillDone).toBe(false)
    await fill
    expect(await tileStoreStatus(db)).toMatchObject({ version, finished: true })
  })

  it('gives way to requests while it fills: waits while one is being answered and goes on once none has been for a moment', async () => {
    const clock = fakeClock()
    const traffic = createTraffic(clock.now)
    const pace = givingWay(traffic, clock)
    const answered = traffic.begin()
    let goesOn = false
    void pace(4).then(() => (goesOn = true))
    // Long past its own rest of 4 ms, the request is still being answered.
    await clock.advance(40)
    expect(goesOn).toBe(false)
    answered()
    await clock.advance(QUIET_MS - 1)
    expect(goesOn).toBe(false)
    await clock.advance(1)
    expect(goesOn).toBe(true)
  })

  it('rests as long as it worked on an idle server, and goes on at its busy share on a server that is never quiet', async () => {
    const clock = fakeClock()
    const traffic = createTraffic(clock.now)
    const pace = givingWay(traffic, clock)
    let idle = false
    void pace(4).then(() => (idle = true))
    await clock.advance(3)
    expect(idle).toBe(false)
    await clock.advance(1)
    expect(idle).toBe(true)

    traffic.begin()
    let busy = false
    void pace(4).then(() => (busy = true))
    await clock.advance(4 * (1 / BUSY_SHARE - 1) - 1)
    expect(busy).toBe(false)
    await clock.advance(1)
    expect(busy).toBe(true)
  })

  it('fills the current version when the server starts and says so in the log', async () => {
    const lines: string[] = []
    const logger = createLogger('info', (l) => lines.push(l))
    await newVersion()
    const filler = startTileStoreFill({ db, logger, pace: noRest, plan: parcelsOnly })
    try {
      await filler.started
      const v = await readDataVersion(db)
      expect(await tileStoreStatus(db)).toMatchObject({ version: v, finished: true })
      expect(lines.some((l) => l.includes(`"msg":"tile store filled","version":${v},"tiles":21`))).toBe(true)
    } finally {
      await filler.stop()
    }
  })

  it('says in npm run datasets whether the store is filled, how far it is, or that it belongs to an older version', () => {
    const s = {
      version: 7,
      partsDone: 3,
      partsTotal: 12,
      tiles: 12_345,
      bytes: 6_789_000,
      finished: false,
      current: true,
    }
    expect(formatTileStore(s)).toBe(
      'Kho tile: đang vẽ sẵn cho phiên bản dữ liệu 7, 25 % (3/12 phần, 12.345 tile, 6,8 MB).',
    )
    expect(formatTileStore({ ...s, finished: true })).toBe(
      'Kho tile: đủ cho phiên bản dữ liệu 7 (12.345 tile, 6,8 MB).',
    )
    expect(formatTileStore({ ...s, current: false })).toMatch(/^Kho tile: của phiên bản dữ liệu 7, cũ;/)
    expect(formatTileStore(null)).toMatch(/^Kho tile: chưa có/)
  })
})
