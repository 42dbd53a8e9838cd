import type { Store } from '../../lib/store.ts'
import { holdWakeLock } from '../../lib/wake-lock.ts'
import type { OverlayTileJson, TileJson, TileLayerId } from '#core/contract/tiles.ts'
import type { PackRequest } from '#core/offline/tile-pack.ts'
import {
  areaLayers,
  areaPlan,
  areaTileUrls,
  deleteArea,
  getArea,
  listAreas,
  packOrigin,
  putArea,
  savedAreasAtom,
  tileUrl,
  type SavedArea,
} from './areas.ts'
import {
  startDownload,
  type DownloadDeps,
  type DownloadHandle,
  type DownloadOutcome,
  type DownloadProgress,
} from './downloader.ts'
import { releaseArea, savePackForArea, saveTileForArea } from './saved-tiles.ts'
import { planCount, type Bbox } from '#core/offline/tile-grid.ts'
import { isQuotaError } from '#core/storage/quota.ts'

/**
 * Runs the saved areas' downloads in the page: one job per area, its state written to IndexedDB as it
 * goes (so a closed app carries on where it stopped when it is opened again), the jotai atom updated
 * for the screens. Going offline pauses a job; coming back online resumes the ones it paused.
 */

/** Progress is written to IndexedDB at most this often (the atom follows every tile). */
const PERSIST_EVERY_MS = 1000

export type ManagerDeps = {
  store: Store
  saveTile?: (url: string, areaId: string, signal: AbortSignal) => Promise<number>
  /** Null: every tile one by one (no pack endpoint). */
  savePack?:
    | ((origin: string, pack: PackRequest, urls: string[], areaId: string, signal: AbortSignal) => Promise<number[]>)
    | null
  release?: (areaId: string, urls: Iterable<string>) => Promise<void>
  isOnline?: () => boolean
  now?: () => number
  download?: Partial<Pick<DownloadDeps, 'sleep' | 'concurrency' | 'retries' | 'baseDelayMs' | 'packTiles'>>
  /** Keeps the screen on while a download runs; returns the release. */
  keepAwake?: () => () => void
}

/** The area with a download's progress. */
const withProgress = (area: SavedArea, p: DownloadProgress): SavedArea => ({
  ...area,
  cursor: p.cursor,
  bytesBefore: p.bytesBefore,
  failedBefore: p.failedBefore,
  done: p.done,
  failed: p.failed,
  bytes: p.bytes,
})

/** Nothing downloaded yet, from the start of the plan. */
const fromStart = { cursor: 0, bytesBefore: 0, failedBefore: 0, done: 0, failed: 0, bytes: 0 } as const

/** The area as a download that did not stop by cancel left it: done, paused, or failed with the reason told. */
function afterDownload(
  area: SavedArea,
  out: Exclude<DownloadOutcome, { status: 'cancelled' }>,
  now: number,
): SavedArea {
  const current = withProgress(area, out.progress)
  if (out.status === 'done') return { ...current, status: 'done', updatedAt: now, cursor: current.total }
  if (out.status === 'paused') return { ...current, status: 'paused', pausedReason: out.reason }
  return {
    ...current,
    status: 'failed',
    error: isQuotaError(out.error) ? 'Bộ nhớ của thiết bị đã đầy.' : 'Tải về bị lỗi.',
  }
}

export type NewArea = {
  name: string
  bbox: Bbox
  minZoom: number
  maxZoom: number
  sets: Partial<Record<TileLayerId, TileJson>>
  overlays?: readonly OverlayTileJson[]
  estimatedBytes: number
}

/** A new area from the user's choice, its tile count planned, about to download. */
function newArea(input: NewArea, now: number): SavedArea {
  const layers = areaLayers(input.sets, input.overlays)
  const base = { bbox: input.bbox, minZoom: input.minZoom, maxZoom: input.maxZoom, layers }
  return {
    id: crypto.randomUUID(),
    name: input.name,
    ...base,
    createdAt: now,
    updatedAt: null,
    status: 'downloading',
    pausedReason: null,
    error: null,
    total: planCount(areaPlan(base)),
    estimatedBytes: input.estimatedBytes,
    ...fromStart,
  }
}

export function createAreaManager(deps: ManagerDeps) {
  const { store } = deps
  const now = deps.now ?? Date.now
  const isOnline = deps.isOnline ?? (() => navigator.onLine)
  const saveTile = deps.saveTile ?? ((url, id, signal) => saveTileForArea(url, id, signal))
  const savePack = deps.savePack === undefined ? savePackForArea : deps.savePack
  const release = deps.release ?? ((id, urls) => releaseArea(id, urls))
  const keepAwake = deps.keepAwake ?? holdWakeLock
  const jobs = new Map<string, { handle: DownloadHandle; done: Promise<void> }>()

  async function reload() {
    store.set(savedAreasAtom, await listAreas())
  }

  function show(area: SavedArea) {
    store.set(savedAreasAtom, (list) =>
      list.some((a) => a.id === area.id) ? list.map((a) => (a.id === area.id ? area : a)) : [area, ...list],
    )
  }

  async function save(area: SavedArea) {
    await putArea(area)
    show(area)
  }

  function run(area: SavedArea): Promise<void> {
    const plan = areaPlan(area)
    let current: SavedArea = { ...area, status: 'downloading', pausedReason: null, error: null }
    let lastWrite = 0
    const handle = startDownload(plan, area.total, area, {
      ...deps.download,
      isOnline,
      saveTile: (t, signal) => {
        const layer = current.layers[t.layer]
        if (!layer) return Promise.resolve(0)
        return saveTile(tileUrl(layer.template, t), area.id, signal)
      },
      ...(savePack && {
        packedBy: (id) => {
          const layer = current.layers[id]
          return layer ? packOrigin(id, layer.template) : null
        },
        savePack: (pack, signal) => {
          // Every layer of a pack is packed by the same server (planPacks).
          const first = pack.layers[0]!
          const urls = pack.tiles.map((t) => tileUrl(current.layers[t.layer]!.template, t))
          return savePack(packOrigin(first, current.layers[first]!.template)!, pack, urls, area.id, signal)
        },
      }),
      onProgress: (p) => {
        current = withProgress(current, p)
        show(current)
        if (now() - lastWrite >= PERSIST_EVERY_MS) {
          lastWrite = now()
          void putArea(current)
        }
      },
    })
    // The screen turning off would stop the download half way: it stays on until the job ends.
    const awake = keepAwake()
    const done = (async () => {
      await save(current)
      const out: DownloadOutcome = await handle.promise.finally(awake)
      jobs.delete(area.id)
      if (out.status === 'cancelled') return
      current = afterDownload(current, out, now())
      await save(current)
    })()
    jobs.set(area.id, { handle, done })
    return done
  }

  async function stopJob(id: string) {
    const job = jobs.get(id)
    if (!job) return
    job.handle.cancel()
    await job.done
  }

  return {
    reload,
    /** Saves a new area and starts downloading it; resolves once it is stored (not when downloaded). */
    async create(input: NewArea): Promise<SavedArea> {
      const area = newArea(input, now())
      await save(area)
      void run(area)
      return area
    },
    /** The job's promise, for tests and for callers that wait for the end. */
    finished: (id: string) => jobs.get(id)?.done ?? Promise.resolve(),
    pause(id: string, reason: 'user' | 'offline' = 'user') {
      jobs.get(id)?.handle.pause(reason)
    },
    async resume(id: string) {
      if (jobs.has(id)) return
      const area = await getArea(id)
      if (area && area.status !== 'done') void run(area)
    },
    /**
     * Downloads the area again with the layers' current TileJSON (new data date); unchanged tiles cost
     * a 304 each. Also how tiles that failed last time are fetched again.
     */
    async refresh(id: string, sets: Partial<Record<TileLayerId, TileJson>>) {
      if (jobs.has(id)) return
      const area = await getArea(id)
      if (!area) return
      const layers = { ...area.layers, ...areaLayers(sets) }
      void run({ ...area, layers, total: planCount(areaPlan({ ...area, layers })), ...fromStart })
    },
    /** Stops any download and removes the area with the tiles no other area holds. */
    async remove(id: string) {
      await stopJob(id)
      const area = await getArea(id)
      await deleteArea(id)
      store.set(savedAreasAtom, (list) => list.filter((a) => a.id !== id))
      if (area) await release(id, areaTileUrls(area))
    },
    /** At app open: downloads that were running when the app closed carry on. */
    async resumeUnfinished() {
      await reload()
      for (const area of store.get(savedAreasAtom)) {
        if (area.status === 'downloading' || (area.status === 'paused' && area.pausedReason === 'offline')) {
          if (isOnline()) void run(area)
          else await save({ ...area, status: 'paused', pausedReason: 'offline' })
        }
      }
    },
    /** The connection went: running jobs pause, to resume by themselves when it comes back. */
    pauseAllOffline() {
      for (const id of jobs.keys()) jobs.get(id)?.handle.pause('offline')
    },
    async resumeAllOnline() {
      for (const area of await listAreas())
        if (area.status === 'paused' && area.pausedReason === 'offline' && !jobs.has(area.id)) void run(area)
    },
    running: (id: string) => jobs.has(id),
  }
}
export type AreaManager = ReturnType<typeof createAreaManager>
