import { atom } from 'jotai'
import { createStore, del, entries, get, set, type UseStore } from 'idb-keyval'
import type { OverlayTileJson, TileJson, TileLayerId } from '#core/contract/tiles.ts'
import { offlineDbs } from '#core/offline/cache-names.ts'
import {
  planArea,
  planTiles,
  type Bbox,
  type LayerExtent,
  type LayerKey,
  type PlanPart,
} from '#core/offline/tile-grid.ts'

/** What a saved area keeps of each layer: where and at which zooms it has tiles, its URL and data date. */
export type AreaLayer = LayerExtent & { template: string; dataDate: string | null }

export type AreaStatus = 'downloading' | 'paused' | 'done' | 'failed'

/**
 * A saved area and its download job, in IndexedDB: enough to resume the download after the app is
 * reopened (the plan is recomputed from the box, zooms and layers; the cursor says how far it got).
 */
export type SavedArea = {
  id: string
  name: string
  bbox: Bbox
  minZoom: number
  maxZoom: number
  layers: Partial<Record<LayerKey, AreaLayer>>
  createdAt: number
  /** When the last full download or refresh finished; null until the first one has. */
  updatedAt: number | null
  status: AreaStatus
  pausedReason: 'user' | 'offline' | null
  error: string | null
  total: number
  estimatedBytes: number
  cursor: number
  bytesBefore: number
  failedBefore: number
  /** Last known progress, for the list. */
  done: number
  failed: number
  bytes: number
}

let areaDb: UseStore | undefined
const areaStore = () => (areaDb ??= createStore(...offlineDbs.areas))

export async function listAreas(): Promise<SavedArea[]> {
  const rows = await entries<string, SavedArea>(areaStore())
  return rows.map(([, a]) => a).sort((a, b) => b.createdAt - a.createdAt)
}
export const getArea = (id: string) => get<SavedArea>(id, areaStore())
export const putArea = (area: SavedArea) => set(area.id, area, areaStore())
export const deleteArea = (id: string) => del(id, areaStore())

/** The saved areas as the screens show them, live progress included. */
export const savedAreasAtom = atom<SavedArea[]>([])

/**
 * The layers as the TileJSONs describe them now (the URL template absolute, as the map requests it),
 * with the raster planning overlays shown on the map (`raster/<id>`, dated by their approval).
 */
export function areaLayers(
  sets: Partial<Record<TileLayerId, TileJson>>,
  overlays: readonly OverlayTileJson[] = [],
): Partial<Record<LayerKey, AreaLayer>> {
  const out: Partial<Record<LayerKey, AreaLayer>> = {}
  for (const [id, tj] of Object.entries(sets) as [TileLayerId, TileJson][]) {
    out[id] = {
      minzoom: tj.minzoom,
      maxzoom: tj.maxzoom,
      bounds: tj.bounds,
      template: tj.tiles[0]!,
      dataDate: tj.data_date,
    }
  }
  for (const o of overlays) {
    out[`raster/${o.id}`] = {
      minzoom: o.minzoom,
      maxzoom: o.maxzoom,
      bounds: o.bounds,
      template: o.tiles[0]!,
      dataDate: o.approved_at,
    }
  }
  return out
}

export function areaPlan(area: Pick<SavedArea, 'bbox' | 'minZoom' | 'maxZoom' | 'layers'>): PlanPart[] {
  return planArea(area.bbox, area.minZoom, area.maxZoom, area.layers)
}

export function tileUrl(template: string, t: { z: number; x: number; y: number }): string {
  return template.replace('{z}', String(t.z)).replace('{x}', String(t.x)).replace('{y}', String(t.y))
}

/**
 * The server origin that packs this layer's tiles (GET /tiles/pack), or null when its tiles are not the
 * server's own vector tiles (`/tiles/{layer}/{z}/{x}/{y}.pbf`) and are saved one by one. A layer the
 * pack endpoint learns to serve (e.g. raster overlays) becomes packable by widening this test and the
 * server's pack query together.
 */
export function packOrigin(layer: LayerKey, template: string): string | null {
  const m = /^(https?:\/\/[^/?#]+)\/tiles\/([a-z]+)\/\{z\}\/\{x\}\/\{y\}\.pbf$/.exec(template)
  return m && m[2] === layer ? new URL(m[1]!).origin : null
}

export function* areaTileUrls(area: Pick<SavedArea, 'bbox' | 'minZoom' | 'maxZoom' | 'layers'>): Generator<string> {
  for (const t of planTiles(areaPlan(area))) {
    const layer = area.layers[t.layer]
    if (layer) yield tileUrl(layer.template, t)
  }
}

/** The newest data date among the layers, for comparing with the server's current one. */
export function newestDataDate(layers: Partial<Record<LayerKey, { dataDate: string | null }>>): string | null {
  return Object.values(layers).reduce<string | null>(
    (a, l) => (l?.dataDate && (a === null || l.dataDate > a) ? l.dataDate : a),
    null,
  )
}

/** Whether the server has newer data than the area was saved with (layer by layer). */
export function isOutdated(area: Pick<SavedArea, 'layers'>, current: Partial<Record<TileLayerId, TileJson>>): boolean {
  return (Object.entries(area.layers) as [TileLayerId, AreaLayer][]).some(([id, l]) => {
    const now = current[id]?.data_date
    return !!now && (l.dataDate === null || now > l.dataDate)
  })
}

/** The saved area that covers a point at a zoom, if any (for "stored data from …" on the map). */
export function areaCovering(
  areas: readonly SavedArea[],
  lat: number,
  lng: number,
  zoom?: number,
): SavedArea | undefined {
  return areas.find(
    (a) =>
      a.updatedAt !== null &&
      lng >= a.bbox[0] &&
      lng <= a.bbox[2] &&
      lat >= a.bbox[1] &&
      lat <= a.bbox[3] &&
      (zoom === undefined || (Math.floor(zoom) >= a.minZoom && Math.floor(zoom) <= a.maxZoom)),
  )
}
