import { describe, expect, it } from 'vitest'
import { backoffDelay, startDownload, type DownloadDeps, type PlannedTile } from './downloader.ts'
import type { PlanPart } from '#core/offline/tile-grid.ts'

const box: PlanPart['box'] = [0, 0, 1, 1]
const plan: PlanPart[] = [
  { layer: 'basemap', range: { z: 16, minX: 0, maxX: 4, minY: 0, maxY: 3 }, count: 20, box },
  { layer: 'planning', range: { z: 16, minX: 0, maxX: 4, minY: 0, maxY: 3 }, count: 20, box },
]
const TOTAL = 40
const fresh = { cursor: 0, bytesBefore: 0, failedBefore: 0 }
const key = (t: PlannedTile) => `${t.layer}/${t.z}/${t.x}/${t.y}`
const noWait: DownloadDeps['sleep'] = async () => {}

/** A tile server answering after a few microtasks, so several saves overlap. */
function server(opts: { fail?: (t: PlannedTile, attempt: number) => unknown } = {}) {
  const attempts = new Map<string, number>()
  const saved: string[] = []
  let inFlight = 0
  let maxInFlight = 0
  const saveTile = async (t: PlannedTile) => {
    inFlight += 1
    maxInFlight = Math.max(maxInFlight, inFlight)
    try {
      for (let i = 0; i < 3; i++) await Promise.resolve()
      const n = (attempts.get(key(t)) ?? 0) + 1
      attempts.set(key(t), n)
      const err = opts.fail?.(t, n)
      if (err) throw err
      saved.push(key(t))
      return 100 + t.x
    } finally {
      inFlight -= 1
    }
  }
  return { saveTile, saved, attempts, maxInFlight: () => maxInFlight }
}

describe('area downloader', () => {
  it('saves every tile once with at most 6 requests at a time and adds up their bytes', async () => {
    const s = server()
    const out = await startDownload(plan, TOTAL, fresh, { saveTile: s.saveTile, sleep: noWait }).promise
    expect(out.status).toBe('done')
    expect(s.saved).toHaveLength(TOTAL)
    expect(new Set(s.saved).size).toBe(TOTAL)
    expect(s.maxInFlight()).toBe(6)
    const expectedBytes = 2 * 4 * (100 + 101 + 102 + 103 + 104)
    expect(out.progress).toMatchObject({ total: TOTAL, done: TOTAL, failed: 0, bytes: expectedBytes, cursor: TOTAL })
  })

  it('retries a failing tile with doubling delays and keeps it once it arrives', async () => {
    const s = server({
      fail: (t, n) =>
        t.layer === 'basemap' && t.x === 2 && t.y === 1 && n <= 2 ? new TypeError('Failed to fetch') : undefined,
    })
    const waits: number[] = []
    const out = await startDownload(plan, TOTAL, fresh, {
      saveTile: s.saveTile,
      sleep: async (ms) => void waits.push(ms),
      random: () => 1,
      baseDelayMs: 500,
    }).promise
    expect(out.status).toBe('done')
    expect(s.attempts.get('basemap/16/2/1')).toBe(3)
    expect(waits).toEqual([500, 1000])
    expect(out.progress.failed).toBe(0)
  })

  it('gives a tile up after the retries, counts it as failed and finishes the rest', async () => {
    const s = server({
      fail: (t) => (t.layer === 'planning' && t.x === 0 && t.y === 0 ? new Response(null, { status: 500 }) : undefined),
    })
    const out = await startDownload(plan, TOTAL, fresh, { saveTile: s.saveTile, sleep: noWait, retries: 3 }).promise
    expect(out.status).toBe('done')
    expect(s.attempts.get('planning/16/0/0')).toBe(4)
    expect(out.progress).toMatchObject({ done: TOTAL, failed: 1 })
    expect(s.saved).toHaveLength(TOTAL - 1)
  })

  it('pauses, then resumes from the stored cursor without saving any tile before it again', async () => {
    const s = server()
    let handle: ReturnType<typeof startDownload> | undefined
    handle = startDownload(plan, TOTAL, fresh, {
      saveTile: s.saveTile,
      sleep: noWait,
      onProgress: (p) => {
        if (p.done === 15) handle?.pause()
      },
    })
    const first = await handle.promise
    expect(first).toMatchObject({ status: 'paused', reason: 'user' })
    const { cursor, bytesBefore, failedBefore } = first.progress
    expect(cursor).toBeGreaterThan(0)
    expect(cursor).toBeLessThan(TOTAL)
    const before = new Set(s.saved.slice())
    const savedEarly = s.saved.length

    const second = await startDownload(
      plan,
      TOTAL,
      { cursor, bytesBefore, failedBefore },
      { saveTile: s.saveTile, sleep: noWait },
    ).promise
    expect(second.status).toBe('done')
    expect(new Set(s.saved).size).toBe(TOTAL)
    // Only tiles at or past the cursor were asked for again; at most the 6 that were in flight repeat.
    expect(s.saved.length - savedEarly).toBeLessThanOrEqual(TOTAL - cursor)
    expect(s.saved.length).toBeLessThanOrEqual(TOTAL + 6)
    expect(before.size).toBe(savedEarly)
    expect(second.progress.bytes).toBe(2 * 4 * (100 + 101 + 102 + 103 + 104))
  })

  it('pauses by itself when the connection drops instead of spending its retries', async () => {
    let online = true
    const s = server({
      fail: (t) => {
        if (t.layer === 'planning') {
          online = false
          return new TypeError('Failed to fetch')
        }
        return undefined
      },
    })
    const out = await startDownload(plan, TOTAL, fresh, { saveTile: s.saveTile, sleep: noWait, isOnline: () => online })
      .promise
    expect(out).toMatchObject({ status: 'paused', reason: 'offline' })
    expect(out.progress.failed).toBe(0)
  })

  it('stops at once when the device storage is full', async () => {
    const s = server({ fail: (t) => (t.x === 3 ? new DOMException('full', 'QuotaExceededError') : undefined) })
    const out = await startDownload(plan, TOTAL, fresh, { saveTile: s.saveTile, sleep: noWait }).promise
    expect(out.status).toBe('failed')
    expect(s.attempts.get('basemap/16/3/0')).toBe(1)
  })

  it('cancels and reports where it stopped', async () => {
    const s = server()
    let handle: ReturnType<typeof startDownload> | undefined
    handle = startDownload(plan, TOTAL, fresh, {
      saveTile: s.saveTile,
      sleep: noWait,
      onProgress: (p) => p.done === 5 && handle?.cancel(),
    })
    const out = await handle.promise
    expect(out.status).toBe('cancelled')
    expect(out.progress.done).toBeLessThan(TOTAL)
  })

  it('waits twice as long after each failure, up to the ceiling, with jitter of at most half', () => {
    expect([0, 1, 2, 3, 6].map((a) => backoffDelay(a, 500, 8000, 1))).toEqual([500, 1000, 2000, 4000, 8000])
    expect(backoffDelay(2, 500, 8000, 0)).toBe(1000)
  })

  it('goes pack by pack, 3 at a time, retries a failing pack whole and counts all its tiles failed when it gives up', async () => {
    const attempts = new Map<string, number>()
    const saved: string[] = []
    let inFlight = 0
    let maxInFlight = 0
    const out = await startDownload(plan, TOTAL, fresh, {
      saveTile: async () => {
        throw new Error('no single tiles when packing')
      },
      packTiles: 10,
      sleep: noWait,
      retries: 2,
      savePack: async (pack) => {
        inFlight += 1
        maxInFlight = Math.max(maxInFlight, inFlight)
        try {
          for (let i = 0; i < 3; i++) await Promise.resolve()
          const k = `${pack.layers.join()}/${pack.tiles[0]!.y}`
          attempts.set(k, (attempts.get(k) ?? 0) + 1)
          if (k === 'planning/2') throw new TypeError('Failed to fetch')
          saved.push(...pack.tiles.map(key))
          return pack.tiles.map(() => 10)
        } finally {
          inFlight -= 1
        }
      },
    }).promise
    expect(out.status).toBe('done')
    expect(maxInFlight).toBe(3)
    // 5 × 4 tiles per layer: two rows per pack of 10, so two packs per layer.
    expect([...attempts.entries()].sort()).toEqual([
      ['basemap/0', 1],
      ['basemap/2', 1],
      ['planning/0', 1],
      ['planning/2', 3],
    ])
    expect(saved).toHaveLength(30)
    expect(out.progress).toMatchObject({ done: TOTAL, failed: 10, bytes: 300, cursor: TOTAL })
  })
})
