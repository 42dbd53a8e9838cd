import { describe, expect, it } from 'vitest'
import type { SizeSample } from '#core/offline/estimate.ts'
import { planArea, type Bbox } from '#core/offline/tile-grid.ts'
import { fetchSizeSamples } from './size-samples.ts'

const bbox: Bbox = [106.7, 10.77, 106.71, 10.78]
const extent = { minzoom: 0, maxzoom: 20, bounds: [102, 8, 110, 24] as Bbox, dataDate: null }
const layers = {
  parcels: { ...extent, template: 'https://t/parcels/{z}/{x}/{y}.pbf' },
  planning: { ...extent, template: 'https://t/planning/{z}/{x}/{y}.pbf' },
}
const plan = planArea(bbox, 17, 17, layers)

describe('sizes of sample tiles for a download’s estimate', () => {
  it('fetches a few tiles per layer and zoom, counts an empty tile as nothing and leaves out one that fails', async () => {
    const asked: string[] = []
    const samples = await fetchSizeSamples(plan, layers, new Map(), new AbortController().signal, async (url) => {
      asked.push(url)
      if (url.includes('/planning/')) throw new TypeError('Failed to fetch')
      return url.endsWith('0.pbf') ? new Response(null, { status: 204 }) : new Response(new Uint8Array(1234))
    })
    expect(asked.length).toBeGreaterThan(1)
    expect(samples.length).toBe(asked.filter((u) => u.includes('/parcels/')).length)
    expect(samples.every((s) => s.layer === 'parcels' && s.z === 17 && (s.bytes === 1234 || s.bytes === 0))).toBe(true)
  })

  it('asks again only for the tiles whose size it does not know yet', async () => {
    const known = new Map<string, SizeSample>()
    let calls = 0
    const fetchImpl = async () => (calls++, new Response(new Uint8Array(10)))
    const first = await fetchSizeSamples(plan, layers, known, new AbortController().signal, fetchImpl)
    const before = calls
    const again = await fetchSizeSamples(plan, layers, known, new AbortController().signal, fetchImpl)
    expect(calls).toBe(before)
    expect(again).toEqual(first)
  })
})
