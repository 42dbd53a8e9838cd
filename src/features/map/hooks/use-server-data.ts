import { useMemo } from 'react'
import type { MapController, TileSets } from '../engine/map-controller.ts'
import { boundsMeet, serverData, type ServerData } from '../server-data.ts'
import type { LatLngZoom } from '../../../lib/map-url.ts'

/**
 * What data the server holds (from its TileJSONs, null until read) and whether the view shows any of it:
 * outside the imported parcels and plans the map has only the national boundaries, and says so.
 */
export function useServerData(
  ctrl: MapController | null,
  view: LatLngZoom,
  tileSets: TileSets | null,
): { server: ServerData | null; dataInView: boolean } {
  const server = useMemo(() => (tileSets ? serverData(tileSets) : null), [tileSets])
  // The box on screen, read again whenever the view moves; null before the map has a size.
  const box = useMemo(() => (view ? ctrl?.viewBounds() : null) ?? null, [ctrl, view])
  const dataInView = server === null || box === null || (server.bounds !== null && boundsMeet(box, server.bounds))
  return { server, dataInView }
}
