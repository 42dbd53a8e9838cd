import { sampleTiles, type SizeSample } from '#core/offline/estimate.ts'
import type { PlanPart } from '#core/offline/tile-grid.ts'
import { tileUrl, type SavedArea } from './areas.ts'

/**
 * The sizes of a few sample tiles per layer and zoom of a planned area, fetched as the map would (so
 * the browser caches them like any viewed tile), for the size estimate before a download. `known` keeps
 * the sizes already fetched by URL; a tile that cannot be fetched is left out.
 */
export async function fetchSizeSamples(
  plan: readonly PlanPart[],
  layers: SavedArea['layers'],
  known: Map<string, SizeSample>,
  signal: AbortSignal,
  fetchImpl: (url: string, init?: RequestInit) => Promise<Response> = (url, init) => fetch(url, init),
): Promise<SizeSample[]> {
  const got = await Promise.all(
    sampleTiles(plan).map(async (t) => {
      const template = layers[t.layer]?.template
      if (!template) return undefined
      const url = tileUrl(template, t)
      const hit = known.get(url)
      if (hit) return hit
      try {
        const res = await fetchImpl(url, { signal })
        const sample = { layer: t.layer, z: t.z, bytes: res.status === 204 ? 0 : (await res.arrayBuffer()).byteLength }
        known.set(url, sample)
        return sample
      } catch {
        return undefined
      }
    }),
  )
  return got.filter((s): s is SizeSample => s !== undefined)
}
