import { describe, expect, it } from 'vitest'
import type { FeatureLike } from 'ol/Feature'
import { tileFactsFrom } from './offline-answer.ts'

const feature = (props: Record<string, unknown>) => ({ get: (k: string) => props[k] }) as unknown as FeatureLike

describe('offline tap on saved tiles', () => {
  it('reads the parcel numbers and main use and the zones with code and colour, the detailed plan first', () => {
    const facts = tileFactsFrom([
      feature({ layer: 'zones', land_use_code: 'ODT', color: '#ffa0ff', plan_level: 'QHPK 1/2000', max_floors: 5 }),
      feature({ layer: 'parcels', id: '88', sheet_no: 12, parcel_no: 345, land_use: 'ODT' }),
      feature({
        layer: 'zones',
        land_use_code: 'DGT',
        color: '#ffaa32',
        plan_level: 'QHCT 1/500',
        block_code: 'A1',
        max_density_pct: '60',
      }),
      feature({ layer: 'roads', name: 'Đường Số 1' }),
    ])
    expect(facts.parcel).toEqual({ id: '88', sheetNo: 12, parcelNo: 345, landUse: 'ODT' })
    expect(facts.zones.map((z) => [z.code, z.color, z.level])).toEqual([
      ['DGT', '#ffaa32', 'QHCT 1/500'],
      ['ODT', '#ffa0ff', 'QHPK 1/2000'],
    ])
    expect(facts.zones[0]).toMatchObject({ block: 'A1', maxDensityPct: 60, maxFloors: null })
    expect(facts.zones[1]).toMatchObject({ maxFloors: 5 })
  })

  it('puts the general plan (QHC) after the zoning plan, and unknown levels last', () => {
    const facts = tileFactsFrom([
      feature({ layer: 'zones', land_use_code: 'CXK', plan_level: null }),
      feature({ layer: 'zones', land_use_code: 'ODT', plan_level: 'QHC' }),
      feature({ layer: 'zones', land_use_code: 'TMD', plan_level: 'QHPK 1/2000' }),
    ])
    expect(facts.zones.map((z) => z.level)).toEqual(['QHPK 1/2000', 'QHC', null])
  })

  it('puts the newer of two plans of one level first and marks the older as replaced by it', () => {
    const facts = tileFactsFrom([
      feature({
        layer: 'zones',
        land_use_code: 'ODT',
        plan_level: 'QHPK 1/2000',
        approved_at: '2017-06-12',
        decision_no: '2468/QĐ-UBND',
        max_floors: 6,
      }),
      feature({
        layer: 'zones',
        land_use_code: 'DGD',
        plan_level: 'QHPK 1/2000',
        approved_at: '2023-09-15',
        decision_no: '1234/QĐ-UBND',
        max_floors: 5,
      }),
    ])
    expect(facts.zones.map((z) => [z.code, z.decision?.decision_no, z.replacedBy?.decision_no ?? null])).toEqual([
      ['DGD', '1234/QĐ-UBND', null],
      ['ODT', '2468/QĐ-UBND', '1234/QĐ-UBND'],
    ])
    expect(facts.zones[1]?.replacedBy).toEqual({ decision_no: '1234/QĐ-UBND', approved_at: '2023-09-15' })
  })

  it('has no parcel where the tiles show none', () => {
    expect(tileFactsFrom([feature({ layer: 'water' })])).toEqual({ parcel: null, zones: [] })
  })
})
