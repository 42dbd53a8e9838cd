import { atom } from 'jotai'
import { atomWithStorage, createJSONStorage } from 'jotai/utils'
import { overlayList, type OverlayTileJson } from '#core/contract/tiles.ts'
import type { Bbox } from '#core/offline/tile-grid.ts'
import { env } from '../../lib/env.ts'
import { fetchJson } from '../../lib/fetch-json.ts'
import { absoluteTiles } from '../../lib/tilejson.ts'
import { storageKeys } from '../../lib/storage-keys.ts'

/** Raster planning overlays (georeferenced scans of published plans) as the server lists them. */
export async function fetchOverlays(signal?: AbortSignal): Promise<OverlayTileJson[]> {
  const { data, from } = await fetchJson(`${env.apiBaseUrl}/tiles/overlays.json`, overlayList, { signal })
  return data.map((o) => absoluteTiles(o, from))
}

/** The overlays the server has; read once per map, kept for the save-area panel. */
export const overlaysAtom = atom<OverlayTileJson[]>([])

export type OverlayChoice = { on: boolean; opacity: number }
export const DEFAULT_OVERLAY_OPACITY = 0.7

/** What the user chose for each overlay, remembered on the device (off until turned on). */
export const overlayChoicesAtom = atomWithStorage<Record<string, OverlayChoice>>(
  storageKeys.overlayChoices,
  {},
  createJSONStorage<Record<string, OverlayChoice>>(() => localStorage),
  { getOnInit: true },
)

export function choiceOf(choices: Record<string, OverlayChoice>, id: string): OverlayChoice {
  return choices[id] ?? { on: false, opacity: DEFAULT_OVERLAY_OPACITY }
}

/** Overlays whose bounds meet the box (the visible area). */
export function overlaysIn(list: readonly OverlayTileJson[], bbox: Bbox): OverlayTileJson[] {
  return list.filter(
    (o) => o.bounds[0] < bbox[2] && o.bounds[2] > bbox[0] && o.bounds[1] < bbox[3] && o.bounds[3] > bbox[1],
  )
}
