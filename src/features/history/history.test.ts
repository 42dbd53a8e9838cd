import { beforeEach, describe, expect, it, vi } from 'vitest'
import {
  add,
  clear,
  getEntry,
  HISTORY_LIMIT,
  list,
  remove,
  storedPlanningAt,
  subscribeHistory,
  type NewHistoryEntry,
} from './history.ts'
import type { PlanningData } from '#core/contract/lookups.ts'

const planning = { parcel: { id: '1' } } as unknown as PlanningData

function entry(i: number, kind: 'planning' | 'valuation' = 'planning'): NewHistoryEntry {
  return {
    kind,
    at: 1_700_000_000_000 + i * 1000,
    lat: 10.8,
    lng: 106.69,
    label: `Tờ 1, thửa ${i}`,
    result: planning,
  } as NewHistoryEntry
}

beforeEach(async () => {
  await clear()
})

describe('lookup history', () => {
  it('lists entries newest first, whatever order they were added in', async () => {
    await add(entry(2))
    await add(entry(5))
    await add(entry(1))
    expect((await list()).map((e) => e.label)).toEqual(['Tờ 1, thửa 5', 'Tờ 1, thửa 2', 'Tờ 1, thửa 1'])
  })

  it(`keeps only the newest ${HISTORY_LIMIT} entries`, async () => {
    for (let i = 0; i < HISTORY_LIMIT + 5; i++) await add(entry(i))
    const kept = await list()
    expect(kept).toHaveLength(HISTORY_LIMIT)
    expect(kept[0]!.label).toBe(`Tờ 1, thửa ${HISTORY_LIMIT + 4}`)
    expect(kept.at(-1)!.label).toBe('Tờ 1, thửa 5')
  })

  it('gives each new entry an id and a time, and reads it back by id with its result', async () => {
    const before = Date.now()
    const saved = await add({ kind: 'planning', lat: 10.8, lng: 106.69, label: 'Mới', result: planning })
    expect(saved.id).toMatch(/^[0-9a-f-]{36}$/)
    expect(saved.at).toBeGreaterThanOrEqual(before)
    expect(await getEntry(saved.id)).toEqual(saved)
  })

  it('lists one kind when asked', async () => {
    await add(entry(1, 'planning'))
    await add(entry(2, 'valuation'))
    expect((await list('valuation')).map((e) => e.kind)).toEqual(['valuation'])
  })

  it('removes one entry by id, and clears all', async () => {
    const a = await add(entry(1))
    await add(entry(2))
    await remove(a.id)
    expect((await list()).map((e) => e.label)).toEqual(['Tờ 1, thửa 2'])
    await clear()
    expect(await list()).toEqual([])
  })

  it('tells subscribers about every change', async () => {
    const listener = vi.fn()
    const stop = subscribeHistory(listener)
    const a = await add(entry(1))
    await remove(a.id)
    await clear()
    stop()
    await add(entry(2))
    expect(listener).toHaveBeenCalledTimes(3)
  })
})

describe('planning results in the history', () => {
  const square = (id: string, lng: number) =>
    ({
      parcel: {
        id,
        sheet_no: 3,
        parcel_no: Number(id),
        address: 'Đường Số 1',
        geometry: {
          type: 'Polygon',
          coordinates: [
            [
              [lng, 10.79],
              [lng + 0.001, 10.79],
              [lng + 0.001, 10.791],
              [lng, 10.791],
              [lng, 10.79],
            ],
          ],
        },
      },
    }) as unknown as PlanningData

  it('finds the stored result for a tapped point by parcel id or by the parcel outline, and nothing elsewhere', async () => {
    await add({ kind: 'planning', lat: 10.7905, lng: 106.7005, label: 'Tờ 3, thửa 7', result: square('7', 106.7) })
    await add({ kind: 'planning', lat: 10.7905, lng: 106.7015, label: 'Tờ 3, thửa 8', result: square('8', 106.701) })
    expect((await storedPlanningAt({ lat: 0, lng: 0 }, '7'))?.result.parcel?.id).toBe('7')
    expect((await storedPlanningAt({ lat: 10.7909, lng: 106.7009 }))?.result.parcel?.id).toBe('7')
    expect((await storedPlanningAt({ lat: 10.7909, lng: 106.7019 }))?.result.parcel?.id).toBe('8')
    expect(await storedPlanningAt({ lat: 10.7909, lng: 106.7039 })).toBeUndefined()
  })

  it('finds a zones-only answer again at the same point, and not a few metres away', async () => {
    const zonesOnly = { parcel: null, zones: [] } as unknown as PlanningData
    await add({ kind: 'planning', lat: 10.79, lng: 106.7, label: 'Ô quy hoạch', result: zonesOnly })
    expect(await storedPlanningAt({ lat: 10.790001, lng: 106.700001 })).toBeDefined()
    expect(await storedPlanningAt({ lat: 10.79005, lng: 106.7 })).toBeUndefined()
  })
})
