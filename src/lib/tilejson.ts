import { env } from './env.ts'
import { fetchJson } from './fetch-json.ts'
import { tileJson, tileLayerIds, type TileJson, type TileLayerId } from '#core/contract/tiles.ts'

/**
 * The tile URL templates of a TileJSON made absolute: the server writes them relative to itself unless
 * PUBLIC_URL is set (never from the Host a request carried), so they are read against where the TileJSON
 * came from (`base`). Not through `new URL`, which would turn the template's braces into %7B…%7D.
 */
export function absoluteTiles<T extends { tiles: string[] }>(tj: T, base: string): T {
  const origin = new URL(base).origin
  return { ...tj, tiles: tj.tiles.map((u) => (u.startsWith('/') ? `${origin}${u}` : u)) }
}

/** Reads a tile set's TileJSON (public, no envelope, so not through the API client and never the loading bar). */
export async function fetchTileJson(layer: TileLayerId, signal?: AbortSignal): Promise<TileJson> {
  const { data, from } = await fetchJson(`${env.apiBaseUrl}/tiles/${layer}.json`, tileJson, { signal })
  return absoluteTiles(data, from)
}

type TileSets = Partial<Record<TileLayerId, TileJson>>

/** TileJSON may be reused for as long as the server lets a cache keep it (Cache-Control max-age=60). */
const EARLY_MAX_AGE_MS = 60_000
let early: { at: number; sets: Promise<TileSets> } | null = null

/**
 * Starts reading the TileJSONs on entering the map route, while its code is still loading, so the map
 * view finds them ready instead of asking only once it exists (one round trip less before the first tiles).
 */
export function prefetchTileSets(): void {
  if (early && Date.now() - early.at < EARLY_MAX_AGE_MS) return
  early = { at: Date.now(), sets: readTileSets() }
}

/** All three TileJSONs (the prefetched ones when fresh); a set that cannot be read is left out and its layer uses defaults. */
export async function fetchTileSets(signal?: AbortSignal): Promise<TileSets> {
  const prefetched = early
  early = null
  if (prefetched && Date.now() - prefetched.at < EARLY_MAX_AGE_MS) return prefetched.sets
  return readTileSets(signal)
}

async function readTileSets(signal?: AbortSignal): Promise<TileSets> {
  const results = await Promise.allSettled(tileLayerIds.map((id) => fetchTileJson(id, signal)))
  const sets: TileSets = {}
  results.forEach((r, i) => {
    if (r.status === 'fulfilled') sets[tileLayerIds[i]!] = r.value
    else if (!signal?.aborted)
      console.info(`tilejson ${tileLayerIds[i]} unavailable:`, r.reason instanceof Error ? r.reason.message : r.reason)
  })
  return sets
}

/** ISO date → dd/mm/yyyy. */
export function vnDate(iso: string): string {
  const [y, m, d] = iso.slice(0, 10).split('-')
  return y && m && d ? `${d}/${m}/${y}` : iso
}
