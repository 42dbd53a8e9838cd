import { useEffect, useState } from 'react'
import { env } from '../../lib/env.ts'
import { tileJson, tileLayerIds, type TileJson, type TileLayerId } from '../../lib/contract/tiles.ts'

/** Reads a tile set's TileJSON (public, no envelope, so not through the API client and never the loading bar). */
export async function fetchTileJson(layer: TileLayerId, signal?: AbortSignal): Promise<TileJson> {
  const res = await fetch(`${env.apiBaseUrl}/tiles/${layer}.json`, { signal })
  if (!res.ok) throw new Error(`HTTP ${res.status}`)
  return tileJson.parse(await res.json())
}

/** All three TileJSONs; a set that cannot be read is left out and its layer uses defaults. */
export async function fetchTileSets(signal?: AbortSignal): Promise<Partial<Record<TileLayerId, TileJson>>> {
  const results = await Promise.allSettled(tileLayerIds.map((id) => fetchTileJson(id, signal)))
  const sets: Partial<Record<TileLayerId, TileJson>> = {}
  results.forEach((r, i) => {
    if (r.status === 'fulfilled') sets[tileLayerIds[i]!] = r.value
    else if (!signal?.aborted) console.info(`tilejson ${tileLayerIds[i]} unavailable:`, r.reason instanceof Error ? r.reason.message : r.reason)
  })
  return sets
}

export function useTileJson(layer: TileLayerId): { data?: TileJson; failed: boolean } {
  const [state, setState] = useState<{ data?: TileJson; failed: boolean }>({ failed: false })
  useEffect(() => {
    const ctrl = new AbortController()
    fetchTileJson(layer, ctrl.signal).then(
      (data) => setState({ data, failed: false }),
      (err: unknown) => {
        if (!ctrl.signal.aborted) {
          console.info('tilejson unavailable:', err instanceof Error ? err.message : err)
          setState({ failed: true })
        }
      },
    )
    return () => ctrl.abort()
  }, [layer])
  return state
}

/** ISO date → dd/mm/yyyy. */
export function vnDate(iso: string): string {
  const [y, m, d] = iso.slice(0, 10).split('-')
  return y && m && d ? `${d}/${m}/${y}` : iso
}
