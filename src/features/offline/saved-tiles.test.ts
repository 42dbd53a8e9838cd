import { describe, expect, it } from 'vitest'
import { tileCaches } from '#core/offline/cache-names.ts'
import { ENTRY_OVERHEAD_BYTES } from '#core/offline/estimate.ts'
import { gzipSync } from 'node:zlib'
import { packEntryHead, packHeader, PackFormatError, rangeBbox, type PackRequest } from '#core/offline/tile-pack.ts'
import { releaseArea, savePackForArea, saveTileForArea, savedRef, TileHttpError } from './saved-tiles.ts'

/** Cache Storage on a Map, handing out a new Response on each match. */
function fakeCaches() {
  const stores = new Map<
    string,
    Map<string, { body: ArrayBuffer | null; status: number; headers: [string, string][] }>
  >()
  const open = async (name: string) => {
    const map = stores.get(name) ?? new Map()
    stores.set(name, map)
    return {
      match: async (url: string) => {
        const s = map.get(url)
        return s ? new Response(s.body, { status: s.status, headers: s.headers }) : undefined
      },
      put: async (url: string, res: Response) =>
        void map.set(url, {
          body: res.status === 204 ? null : await res.arrayBuffer(),
          status: res.status,
          headers: [...res.headers],
        }),
      delete: async (url: string) => map.delete(url),
    }
  }
  return { caches: { open } as unknown as CacheStorage, urls: (name: string) => [...(stores.get(name)?.keys() ?? [])] }
}

const url = (x: number) => `https://app.test/tiles/planning/17/${x}/61580.pbf`

describe('saved area tiles', () => {
  it('keeps tiles and empty tiles, asks again with the ETag and writes nothing for an unchanged tile', async () => {
    const { caches, urls } = fakeCaches()
    const sent: (string | null)[] = []
    let writes = 0
    const fetch = (async (u: string, init?: RequestInit) => {
      const inm = new Headers(init?.headers).get('If-None-Match')
      sent.push(inm)
      expect(init?.cache).toBe('no-store')
      if (inm === 'W/"v1"') return new Response(null, { status: 304 })
      writes += 1
      return u.endsWith('/2/61580.pbf')
        ? new Response(null, { status: 204, headers: { ETag: 'W/"v1"' } })
        : new Response(new Uint8Array(3000), { headers: { ETag: 'W/"v1"' } })
    }) as typeof globalThis.fetch
    const signal = new AbortController().signal
    expect(await saveTileForArea(url(1), 'a', signal, { caches, fetch })).toBe(3000 + ENTRY_OVERHEAD_BYTES)
    expect(await saveTileForArea(url(2), 'a', signal, { caches, fetch })).toBe(ENTRY_OVERHEAD_BYTES)
    expect(urls(tileCaches.saved).sort()).toEqual([url(1), url(2)])
    // A second area over the same tile: a 304, and the tile is now held by both.
    expect(await saveTileForArea(url(1), 'b', signal, { caches, fetch })).toBe(3000 + ENTRY_OVERHEAD_BYTES)
    expect(sent).toEqual([null, null, 'W/"v1"'])
    expect(writes).toBe(2)
    expect((await savedRef(url(1)))?.areas).toEqual(['a', 'b'])
  })

  it('refuses a tile the server did not give, so the downloader retries it', async () => {
    const { caches } = fakeCaches()
    const fetch = (async () => new Response('busy', { status: 503 })) as unknown as typeof globalThis.fetch
    await expect(saveTileForArea(url(7), 'a', new AbortController().signal, { caches, fetch })).rejects.toBeInstanceOf(
      TileHttpError,
    )
  })

  it('removes an area’s tiles except those another saved area still holds', async () => {
    const { caches, urls } = fakeCaches()
    const fetch = (async () =>
      new Response(new Uint8Array(10), { headers: { ETag: 'W/"x"' } })) as unknown as typeof globalThis.fetch
    const signal = new AbortController().signal
    await saveTileForArea(url(11), 'a', signal, { caches, fetch })
    await saveTileForArea(url(12), 'a', signal, { caches, fetch })
    await saveTileForArea(url(12), 'b', signal, { caches, fetch })
    await releaseArea('a', [url(11), url(12)], { caches })
    expect(urls(tileCaches.saved)).toEqual([url(12)])
    expect((await savedRef(url(12)))?.areas).toEqual(['b'])
    expect(await savedRef(url(11))).toBeUndefined()
  })

  it('stores the tiles of a pack exactly as single tiles are stored, and asks an unchanged pack with its version so a 304 writes nothing', async () => {
    const { caches } = fakeCaches()
    const pack: PackRequest = {
      box: rangeBbox({ z: 17, minX: 21, maxX: 22, minY: 61580, maxY: 61580 }),
      zooms: [17, 17],
      layers: ['planning'],
      tiles: [
        { layer: 'planning', z: 17, x: 21, y: 61580, index: 0 },
        { layer: 'planning', z: 17, x: 22, y: 61580, index: 1 },
      ],
    }
    const body = new Uint8Array(3000).map((_, i) => i % 7)
    const gz = new Uint8Array(gzipSync(body))
    const packBody = new Blob([
      packHeader(9, 2),
      packEntryHead(pack.tiles[0]!, gz),
      gz,
      packEntryHead(pack.tiles[1]!, null),
    ])
    const asked: { url: string; inm: string | null }[] = []
    const fetch = (async (u: string, init?: RequestInit) => {
      const inm = new Headers(init?.headers).get('If-None-Match')
      asked.push({ url: u, inm })
      if (inm === 'W/"9"') return new Response(null, { status: 304 })
      return new Response(await packBody.arrayBuffer(), { headers: { 'Content-Type': 'application/vnd.qh.tile-pack' } })
    }) as typeof globalThis.fetch
    const signal = new AbortController().signal
    const urls = [url(21), url(22)]
    const bytes = await savePackForArea('https://app.test', pack, urls, 'a', signal, { caches, fetch, now: () => 5 })
    expect(bytes).toEqual([3000 + ENTRY_OVERHEAD_BYTES, ENTRY_OVERHEAD_BYTES])
    expect(asked[0]!.url).toMatch(/^https:\/\/app\.test\/tiles\/pack\?bbox=[\d.,e-]+&zooms=17&layers=planning$/)
    const cache = await caches.open(tileCaches.saved)
    const tile = (await cache.match(url(21)))!
    expect([
      tile.status,
      tile.headers.get('ETag'),
      tile.headers.get('Content-Type'),
      tile.headers.get('X-Qh-Fetched-At'),
    ]).toEqual([200, 'W/"9-planning-17-21-61580"', 'application/x-protobuf', '5'])
    expect(new Uint8Array(await tile.arrayBuffer())).toEqual(body)
    const empty = (await cache.match(url(22)))!
    expect([empty.status, empty.headers.get('ETag'), empty.headers.get('Content-Type')]).toEqual([
      204,
      'W/"9-planning-17-22-61580"',
      null,
    ])

    // Another area over the same tiles: the pack is asked with version 9 and only the claims change.
    expect(await savePackForArea('https://app.test', pack, urls, 'b', signal, { caches, fetch })).toEqual(bytes)
    expect(asked.map((a) => a.inm)).toEqual([null, 'W/"9"'])
    expect((await savedRef(url(21)))?.areas).toEqual(['a', 'b'])
  })

  it('refuses a pack cut short or missing a tile, so the downloader asks for it again', async () => {
    const { caches } = fakeCaches()
    const t = { layer: 'parcels' as const, z: 17, x: 31, y: 61580 }
    const pack: PackRequest = {
      box: rangeBbox({ z: 17, minX: 31, maxX: 32, minY: 61580, maxY: 61580 }),
      zooms: [17, 17],
      layers: ['parcels'],
      tiles: [
        { ...t, index: 0 },
        { ...t, x: 32, index: 1 },
      ],
    }
    const gz = new Uint8Array(gzipSync(new Uint8Array(100)))
    const whole = new Uint8Array(await new Blob([packHeader(3, 1), packEntryHead(t, gz), gz]).arrayBuffer())
    const signal = new AbortController().signal
    const serve = (b: Uint8Array) => (async () => new Response(b.slice())) as unknown as typeof globalThis.fetch
    await expect(
      savePackForArea('https://app.test', pack, [url(31), url(32)], 'a', signal, {
        caches,
        fetch: serve(whole.subarray(0, whole.length - 5)),
      }),
    ).rejects.toBeInstanceOf(PackFormatError)
    await expect(
      savePackForArea('https://app.test', pack, [url(31), url(32)], 'a', signal, { caches, fetch: serve(whole) }),
    ).rejects.toBeInstanceOf(PackFormatError)
    // The tile that did arrive is kept and held by the area, so removing the area removes it too.
    expect((await savedRef(url(31)))?.areas).toEqual(['a'])
    await releaseArea('a', [url(31), url(32)], { caches })
    expect(await (await caches.open(tileCaches.saved)).match(url(31))).toBeUndefined()
  })

  it('stores a pack of several layers and zooms under each tile’s own address', async () => {
    const { caches } = fakeCaches()
    const tiles = [
      { layer: 'basemap' as const, z: 12, x: 3262, y: 1924, index: 0 },
      { layer: 'planning' as const, z: 12, x: 3262, y: 1924, index: 1 },
      { layer: 'basemap' as const, z: 13, x: 6524, y: 3848, index: 2 },
      { layer: 'planning' as const, z: 13, x: 6524, y: 3848, index: 3 },
    ]
    const pack: PackRequest = {
      box: [106.7, 10.79, 106.7001, 10.7901],
      zooms: [12, 13],
      layers: ['basemap', 'planning'],
      tiles,
    }
    const gz = new Uint8Array(gzipSync(new Uint8Array(40).fill(3)))
    const body = new Blob([packHeader(4, 4), ...tiles.flatMap((t) => [packEntryHead(t, gz), gz])])
    let asked = ''
    const fetch = (async (u: string) => {
      asked = u
      return new Response(await body.arrayBuffer())
    }) as typeof globalThis.fetch
    const urls = tiles.map((t) => `https://app.test/tiles/${t.layer}/${t.z}/${t.x}/${t.y}.pbf`)
    expect(
      await savePackForArea('https://app.test', pack, urls, 'a', new AbortController().signal, { caches, fetch }),
    ).toEqual(tiles.map(() => 40 + ENTRY_OVERHEAD_BYTES))
    expect(asked).toBe(
      'https://app.test/tiles/pack?bbox=106.7,10.79,106.7001,10.7901&zooms=12-13&layers=basemap,planning',
    )
    const cache = await caches.open(tileCaches.saved)
    for (const [i, t] of tiles.entries())
      expect((await cache.match(urls[i]!))!.headers.get('ETag')).toBe(`W/"4-${t.layer}-${t.z}-${t.x}-${t.y}"`)
    expect((await savedRef(urls[3]!))?.areas).toEqual(['a'])
  })
})
