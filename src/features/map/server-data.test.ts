import { describe, expect, it } from 'vitest'
import type { TileJson } from '#core/contract/tiles.ts'
import { boundsMeet, importedBounds, serverData } from './server-data.ts'

const set = (bounds: TileJson['bounds'], more: Partial<TileJson> = {}): TileJson => ({
  tilejson: '3.0.0',
  name: 'x',
  description: '',
  attribution: 'Phường mô phỏng — nguồn: Dữ liệu mô phỏng, ngày dữ liệu 30/06/2026',
  scheme: 'xyz',
  tiles: ['/t/{z}/{x}/{y}.pbf'],
  minzoom: 12,
  maxzoom: 18,
  bounds,
  center: [0, 0, 12],
  vector_layers: [],
  data_date: '2026-06-30',
  ...more,
})
const WORLD: TileJson['bounds'] = [-180, -85.05, 180, 85.05]
const country: TileJson['bounds'] = [102.1, 8.4, 117.8, 23.4]

describe('what data the server holds', () => {
  it('is where the parcels and plans are, not the basemap that spans the country with the national boundaries', () => {
    const sets = {
      basemap: set(country),
      parcels: set([106.69, 10.79, 106.71, 10.8]),
      planning: set([106.68, 10.78, 106.7, 10.81]),
    }
    expect(importedBounds(sets)).toEqual([106.68, 10.78, 106.71, 10.81])
    expect(importedBounds({ basemap: set(country), parcels: set(WORLD, { data_date: null }) })).toBeNull()
  })

  it('tells whether a view meets the data', () => {
    const data: [number, number, number, number] = [106.68, 10.78, 106.71, 10.81]
    expect(boundsMeet([106.7, 10.8, 106.75, 10.85], data)).toBe(true)
    expect(boundsMeet([105.8, 21.0, 105.9, 21.1], data)).toBe(false)
  })

  it('names the wards and datasets the parcels and plans come from, each set’s list once, and none when it has no data', () => {
    const parcels = set([106.69, 10.79, 106.71, 10.8], { coverage: ['Phường Gia An, Thành phố Hồ Chí Minh'] })
    const data = serverData({ parcels, planning: set([106.68, 10.78, 106.7, 10.81]) })
    expect(data.wards).toEqual(['Phường Gia An, Thành phố Hồ Chí Minh'])
    expect(data.datasets).toEqual(['Phường mô phỏng — nguồn: Dữ liệu mô phỏng, ngày dữ liệu 30/06/2026'])
    const none = serverData({ parcels: set(WORLD, { attribution: 'Chưa có dữ liệu', data_date: null, coverage: [] }) })
    expect(none).toEqual({ bounds: null, wards: [], datasets: [] })
  })
})
