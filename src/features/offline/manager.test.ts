import { beforeEach, describe, expect, it } from 'vitest'
import { createStore } from 'jotai'
import type { TileJson } from '#core/contract/tiles.ts'
import { deleteArea, getArea, listAreas, putArea, savedAreasAtom } from './areas.ts'
import { createAreaManager, type ManagerDeps } from './manager.ts'
import { planCount, planArea, type Bbox } from '#core/offline/tile-grid.ts'

const bounds: Bbox = [106.69, 10.79, 106.71, 10.8]
const tj = (id: string, minzoom: number, maxzoom: number, date = '2026-06-30'): TileJson => ({
  tilejson: '3.0.0',
  name: id,
  description: '',
  attribution: '',
  scheme: 'xyz',
  tiles: [`https://app.test/tiles/${id}/{z}/{x}/{y}.pbf`],
  minzoom,
  maxzoom,
  bounds,
  center: [106.7, 10.795, 15],
  vector_layers: [],
  data_date: date,
})
const sets = { basemap: tj('basemap', 10, 18), planning: tj('planning', 12, 18), parcels: tj('parcels', 16, 20) }
const area = {
  name: 'Phường mẫu',
  bbox: [106.695, 10.792, 106.7, 10.796] as Bbox,
  minZoom: 15,
  maxZoom: 17,
  sets,
  estimatedBytes: 1000,
}

function setup(extra: Partial<ManagerDeps> = {}) {
  const store = createStore()
  const saved = new Map<string, Set<string>>()
  const released: string[] = []
  const packs: { origin: string; layers: string[]; urls: string[] }[] = []
  const singles: string[] = []
  let online = true
  const saveTile: NonNullable<ManagerDeps['saveTile']> =
    extra.saveTile ??
    (async (url, id) => {
      await Promise.resolve()
      if (!online) throw new TypeError('Failed to fetch')
      saved.set(url, (saved.get(url) ?? new Set()).add(id))
      return 1000
    })
  const manager = createAreaManager({
    store,
    isOnline: () => online,
    saveTile: (url, id, signal) => {
      singles.push(url)
      return saveTile(url, id, signal)
    },
    // A pack stores its tiles as the single saves would, one after another.
    savePack: async (origin, pack, urls, id, signal) => {
      packs.push({ origin, layers: pack.layers, urls })
      const out: number[] = []
      for (const u of urls) out.push(await saveTile(u, id, signal))
      return out
    },
    release: async (id, urls) => {
      for (const u of urls) released.push(`${id} ${u}`)
    },
    download: { sleep: async () => {}, packTiles: 8 },
    ...extra,
    ...(extra.saveTile && { saveTile: extra.saveTile }),
  })
  return { store, manager, saved, released, packs, singles, setOnline: (v: boolean) => (online = v) }
}

beforeEach(async () => {
  for (const a of await listAreas()) await deleteArea(a.id)
})

describe('saved area downloads', () => {
  it('downloads every tile of all three layers for the chosen zooms and keeps the area as done', async () => {
    const { manager, store, saved } = setup()
    const created = await manager.create(area)
    await manager.finished(created.id)
    const expected = planCount(
      planArea(area.bbox, 15, 17, { basemap: sets.basemap, planning: sets.planning, parcels: sets.parcels }),
    )
    expect(created.total).toBe(expected)
    expect(saved.size).toBe(expected)
    expect([...saved.keys()].some((u) => u.includes('/parcels/16/'))).toBe(true)
    expect([...saved.keys()].some((u) => u.includes('/parcels/15/'))).toBe(false)
    const stored = await getArea(created.id)
    expect(stored).toMatchObject({ status: 'done', done: expected, bytes: expected * 1000, failed: 0 })
    expect(stored!.updatedAt).not.toBeNull()
    expect(store.get(savedAreasAtom)[0]).toMatchObject({ id: created.id, status: 'done' })
  })

  it('keeps the screen on while an area downloads and lets it go when the download ends', async () => {
    const awake: string[] = []
    const { manager } = setup({
      keepAwake: () => {
        awake.push('held')
        return () => awake.push('released')
      },
    })
    const created = await manager.create(area)
    expect(awake).toEqual(['held'])
    await manager.finished(created.id)
    expect(awake).toEqual(['held', 'released'])
  })

  it('saves the server’s vector layers in packs and a layer served elsewhere tile by tile', async () => {
    const { manager, saved, packs, singles } = setup()
    const elsewhere = { ...sets, basemap: { ...sets.basemap, tiles: ['https://tiles.example.org/{z}/{x}/{y}.pbf'] } }
    const created = await manager.create({ ...area, sets: elsewhere })
    await manager.finished(created.id)
    expect(saved.size).toBe(created.total)
    expect(
      packs.every((p) => p.origin === 'https://app.test' && !p.layers.includes('basemap') && p.urls.length <= 8),
    ).toBe(true)
    expect(new Set(packs.flatMap((p) => p.layers))).toEqual(new Set(['planning', 'parcels']))
    expect(singles.length).toBeGreaterThan(0)
    expect(singles.every((u) => u.startsWith('https://tiles.example.org/'))).toBe(true)
    expect(packs.reduce((n, p) => n + p.urls.length, 0) + singles.length).toBe(created.total)
  })

  it('carries on after the app is reopened from where the stored job stopped', async () => {
    let id = ''
    let count = 0
    const first = setup({
      saveTile: async () => {
        await Promise.resolve()
        if (++count === 15) first.manager.pause(id)
        return 1000
      },
    })
    const created = await first.manager.create(area)
    id = created.id
    await first.manager.finished(created.id)
    // As if the app had been closed mid-download: the record says downloading, at its cursor.
    const stopped = (await getArea(created.id))!
    expect(stopped.cursor).toBeGreaterThan(0)
    await putArea({ ...stopped, status: 'downloading' })

    const second = setup()
    await second.manager.resumeUnfinished()
    await second.manager.finished(created.id)
    const done = (await getArea(created.id))!
    expect(done.status).toBe('done')
    // The second run started at the stored cursor: it did not fetch the tiles before it again.
    expect(second.saved.size).toBeLessThanOrEqual(done.total - stopped.cursor)
  })

  it('pauses when the connection goes and resumes by itself when it comes back', async () => {
    const t = setup()
    const created = await t.manager.create(area)
    t.setOnline(false)
    await t.manager.finished(created.id)
    expect(await getArea(created.id)).toMatchObject({ status: 'paused', pausedReason: 'offline' })
    t.setOnline(true)
    await t.manager.resumeAllOnline()
    await t.manager.finished(created.id)
    expect(await getArea(created.id)).toMatchObject({ status: 'done' })
  })

  it('deletes an area with its tiles and stops its download', async () => {
    const t = setup()
    const created = await t.manager.create(area)
    await t.manager.finished(created.id)
    await t.manager.remove(created.id)
    expect(await getArea(created.id)).toBeUndefined()
    expect(t.store.get(savedAreasAtom)).toEqual([])
    expect(t.released).toHaveLength(created.total)
  })

  it('refreshes with the current data date and fetches every tile again', async () => {
    const t = setup()
    const created = await t.manager.create(area)
    await t.manager.finished(created.id)
    const newer = { ...sets, planning: tj('planning', 12, 18, '2026-09-01') }
    await t.manager.refresh(created.id, newer)
    await t.manager.finished(created.id)
    const after = (await getArea(created.id))!
    expect(after.layers.planning?.dataDate).toBe('2026-09-01')
    expect(after).toMatchObject({ status: 'done', done: created.total, failed: 0 })
  })
})
