import { describe, expect, it } from 'vitest'
import { tileCaches } from '#core/offline/cache-names.ts'
import { ENTRY_OVERHEAD_BYTES } from '#core/offline/estimate.ts'
import { releaseArea, saveTileForArea, savedRef, TileHttpError } from './saved-tiles.ts'

/** Cache Storage on a Map, handing out a new Response on each match. */
function fakeCaches() {
  const stores = new Map<string, Map<string, { body: ArrayBuffer | null; status: number; headers: [string, string][] }>>()
  const open = async (name: string) => {
    const map = stores.get(name) ?? new Map()
    stores.set(name, map)
    return {
      match: async (url: string) => {
        const s = map.get(url)
        return s ? new Response(s.body, { status: s.status, headers: s.headers }) : undefined
      },
      put: async (url: string, res: Response) => void map.set(url, { body: res.status === 204 ? null : await res.arrayBuffer(), status: res.status, headers: [...res.headers] }),
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
      return u.endsWith('/2/61580.pbf') ? new Response(null, { status: 204, headers: { ETag: 'W/"v1"' } }) : new Response(new Uint8Array(3000), { headers: { ETag: 'W/"v1"' } })
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
    await expect(saveTileForArea(url(7), 'a', new AbortController().signal, { caches, fetch })).rejects.toBeInstanceOf(TileHttpError)
  })

  it('removes an area’s tiles except those another saved area still holds', async () => {
    const { caches, urls } = fakeCaches()
    const fetch = (async () => new Response(new Uint8Array(10), { headers: { ETag: 'W/"x"' } })) as unknown as typeof globalThis.fetch
    const signal = new AbortController().signal
    await saveTileForArea(url(11), 'a', signal, { caches, fetch })
    await saveTileForArea(url(12), 'a', signal, { caches, fetch })
    await saveTileForArea(url(12), 'b', signal, { caches, fetch })
    await releaseArea('a', [url(11), url(12)], { caches })
    expect(urls(tileCaches.saved)).toEqual([url(12)])
    expect((await savedRef(url(12)))?.areas).toEqual(['b'])
    expect(await savedRef(url(11))).toBeUndefined()
  })
})
