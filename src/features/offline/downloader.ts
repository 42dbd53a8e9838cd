import { planTiles, type LayerKey, type LayerTile, type PlanPart } from '#core/offline/tile-grid.ts'
import { PACK_CONCURRENCY, planPacks, type PackRequest } from '#core/offline/tile-pack.ts'
import { isQuotaError } from '#core/storage/quota.ts'

/**
 * Downloads a plan's tiles: in packs of many tiles per request where the layer can be packed, else
 * tile by tile; a few requests at a time, each failed one retried with exponential backoff, pausable,
 * cancellable and resumable. Progress is kept as a cursor (every tile before it is handled) plus the
 * handled tiles beyond it, so a download that stops anywhere resumes from the cursor and redoes at
 * most the packs or tiles that were in flight.
 */

export type PlannedTile = LayerTile & { index: number }

/** Where a download stands; `cursor`, `bytesBefore` and `failedBefore` are what must be stored to resume. */
export type DownloadProgress = {
  total: number
  /** Tiles handled (saved, or given up after the retries). */
  done: number
  failed: number
  bytes: number
  cursor: number
  bytesBefore: number
  failedBefore: number
}

export type DownloadStart = { cursor: number; bytesBefore: number; failedBefore: number }

export type DownloadOutcome =
  | { status: 'done'; progress: DownloadProgress }
  | { status: 'paused'; reason: 'user' | 'offline'; progress: DownloadProgress }
  | { status: 'cancelled'; progress: DownloadProgress }
  /** A failure retrying cannot fix, e.g. the device's storage is full. */
  | { status: 'failed'; error: unknown; progress: DownloadProgress }

export type DownloadDeps = {
  /** Fetches and stores one tile; resolves with the bytes it takes on the device. */
  saveTile: (tile: PlannedTile, signal: AbortSignal) => Promise<number>
  /** Fetches and stores a pack of tiles; resolves with the bytes each takes, in the pack's order. */
  savePack?: (pack: PackRequest, signal: AbortSignal) => Promise<number[]>
  /** The server that packs a layer's tiles (its origin), null for a layer saved tile by tile; one server for all when savePack is given and this is not. */
  packedBy?: (layer: LayerKey) => string | null
  /** Tiles per pack. */
  packTiles?: number
  /** Requests in flight: DOWNLOAD_CONCURRENCY, or PACK_CONCURRENCY when packing. */
  concurrency?: number
  /** Attempts after the first before a tile or pack is given up (its tiles counted as failed). */
  retries?: number
  baseDelayMs?: number
  maxDelayMs?: number
  sleep?: (ms: number, signal: AbortSignal) => Promise<void>
  random?: () => number
  /** Whether the device has a connection; a failure while it has none pauses instead of retrying. */
  isOnline?: () => boolean
  /** Errors that stop the whole download rather than being retried. */
  isFatal?: (err: unknown) => boolean
  onProgress?: (p: DownloadProgress) => void
}

export const DOWNLOAD_CONCURRENCY = 6

/** One request: a pack, or a single tile (`pack` null). */
type Unit = { pack: PackRequest | null; tiles: PlannedTile[] }

function* downloadUnits(plan: readonly PlanPart[], from: number, deps: DownloadDeps): Generator<Unit> {
  if (!deps.savePack) {
    for (const t of planTiles(plan, from)) yield { pack: null, tiles: [t] }
    return
  }
  const packedBy = deps.packedBy ?? (() => '')
  for (const pack of planPacks(plan, {
    from,
    ...(deps.packTiles !== undefined && { maxTiles: deps.packTiles }),
    packedBy,
  })) {
    // A layer no server packs comes as a pack of its own, and goes tile by tile.
    if (pack.layers.every((l) => packedBy(l) !== null)) yield { pack, tiles: pack.tiles }
    else for (const t of pack.tiles) yield { pack: null, tiles: [t] }
  }
}

export function backoffDelay(attempt: number, base: number, max: number, random: number): number {
  // Full doubling with jitter, so six parallel retries do not hit the server in step.
  return Math.min(max, base * 2 ** attempt) * (0.5 + random / 2)
}

function defaultSleep(ms: number, signal: AbortSignal): Promise<void> {
  return new Promise((resolve) => {
    const t = setTimeout(resolve, ms)
    signal.addEventListener(
      'abort',
      () => {
        clearTimeout(t)
        resolve()
      },
      { once: true },
    )
  })
}

export type DownloadHandle = {
  promise: Promise<DownloadOutcome>
  /** 'offline' when the app saw the connection go, so it can carry on by itself when it comes back. */
  pause(reason?: 'user' | 'offline'): void
  cancel(): void
}

export function startDownload(
  plan: readonly PlanPart[],
  total: number,
  start: DownloadStart,
  deps: DownloadDeps,
): DownloadHandle {
  const concurrency = deps.concurrency ?? (deps.savePack ? PACK_CONCURRENCY : DOWNLOAD_CONCURRENCY)
  const retries = deps.retries ?? 4
  const base = deps.baseDelayMs ?? 500
  const max = deps.maxDelayMs ?? 8000
  const sleep = deps.sleep ?? defaultSleep
  const random = deps.random ?? Math.random
  const isOnline = deps.isOnline ?? (() => true)
  const isFatal = deps.isFatal ?? isQuotaError

  const abort = new AbortController()
  let stop:
    | { status: 'paused'; reason: 'user' | 'offline' }
    | { status: 'cancelled' }
    | { status: 'failed'; error: unknown }
    | null = null
  let cursor = start.cursor
  let bytesBefore = start.bytesBefore
  let failedBefore = start.failedBefore
  const ahead = new Map<number, { bytes: number; failed: boolean }>()

  const progress = (): DownloadProgress => {
    let bytes = bytesBefore
    let failed = failedBefore
    for (const t of ahead.values()) {
      bytes += t.bytes
      if (t.failed) failed += 1
    }
    return { total, done: cursor + ahead.size, failed, bytes, cursor, bytesBefore, failedBefore }
  }

  function handled(index: number, bytes: number, failed: boolean) {
    ahead.set(index, { bytes, failed })
    for (let t = ahead.get(cursor); t; t = ahead.get(cursor)) {
      ahead.delete(cursor)
      bytesBefore += t.bytes
      if (t.failed) failedBefore += 1
      cursor += 1
    }
    deps.onProgress?.(progress())
  }

  function halt(reason: NonNullable<typeof stop>) {
    stop ??= reason
    abort.abort()
  }

  const units = downloadUnits(plan, start.cursor, deps)
  const save = async (unit: Unit): Promise<number[]> =>
    unit.pack && deps.savePack
      ? deps.savePack(unit.pack, abort.signal)
      : [await deps.saveTile(unit.tiles[0]!, abort.signal)]

  async function worker(): Promise<void> {
    for (let next = units.next(); !next.done && !stop; next = units.next()) {
      const unit = next.value
      for (let attempt = 0; ; attempt++) {
        try {
          const bytes = await save(unit)
          if (!stop) unit.tiles.forEach((t, i) => handled(t.index, bytes[i] ?? 0, false))
          break
        } catch (err) {
          if (stop) return
          if (isFatal(err)) return halt({ status: 'failed', error: err })
          if (!isOnline()) return halt({ status: 'paused', reason: 'offline' })
          if (attempt >= retries) {
            for (const t of unit.tiles) handled(t.index, 0, true)
            break
          }
          await sleep(backoffDelay(attempt, base, max, random()), abort.signal)
          if (stop) return
        }
      }
    }
  }

  const promise = Promise.all(Array.from({ length: concurrency }, worker)).then((): DownloadOutcome => {
    const p = progress()
    if (!stop) return { status: 'done', progress: p }
    if (stop.status === 'failed') return { status: 'failed', error: stop.error, progress: p }
    if (stop.status === 'paused') return { status: 'paused', reason: stop.reason, progress: p }
    return { status: 'cancelled', progress: p }
  })

  return {
    promise,
    pause: (reason = 'user') => halt({ status: 'paused', reason }),
    cancel: () => halt({ status: 'cancelled' }),
  }
}
