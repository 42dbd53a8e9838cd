import { describe, expect, it } from 'vitest'
import { fullAddress, isSimulated, nonResidentialZones, planCount, planGroups, reserveVerdict } from './selection.ts'

const zone = (code: string, governing = true) => ({ land_use_code: code, governing }) as never
const parcel = (codes: string[]) => ({ land_use: codes.map((code) => ({ code, name: code, area_m2: 50 })) }) as never

describe('result verdicts', () => {
  it('adds up the area every road reserve takes and calls the parcel affected when any is taken', () => {
    expect(reserveVerdict({ road_reserves: [] })).toEqual({ affected: false, totalM2: 0 })
    expect(
      reserveVerdict({
        road_reserves: [
          { road_name: 'A', width_m: 20, affected_area_m2: 12.34 },
          { road_name: 'B', width_m: 12, affected_area_m2: 3.1 },
        ],
      }),
    ).toEqual({ affected: true, totalM2: 15.4 })
  })

  it('flags a housing parcel inside a zone planned for roads, but not a housing zone', () => {
    expect(
      nonResidentialZones({ parcel: parcel(['ODT']), zones: [zone('ODT'), zone('DGT')] }).map((z) => z.land_use_code),
    ).toEqual(['DGT'])
    expect(nonResidentialZones({ parcel: parcel(['TMD']), zones: [zone('DGT')] })).toEqual([])
  })

  it('judges by the governing plan only: a road in a higher-level plan refined away does not flag the parcel', () => {
    expect(nonResidentialZones({ parcel: parcel(['ODT']), zones: [zone('ODT'), zone('DGT', false)] })).toEqual([])
  })

  it('flags nothing on a zones-only answer, which has no parcel', () => {
    expect(nonResidentialZones({ parcel: null, zones: [zone('DGT')] })).toEqual([])
  })

  it('splits the zones into the governing plan and the higher-level plans, ordering results stored before the flag existed', () => {
    const z = (id: string, plan_level: string, approved_at: string, governing?: boolean) =>
      ({ id, plan_name: id, plan_level, approved_at, decision_no: id, governing }) as never
    const flagged = planGroups([z('a', 'QHCT 1/500', '2020-01-01', true), z('b', 'QHC', '2024-01-01', false)])
    expect([flagged.governing.map((x) => x.id), flagged.higher.map((x) => x.id)]).toEqual([['a'], ['b']])
    const stored = planGroups([z('c', 'QHC', '2024-01-01'), z('d', 'QHPK 1/2000', '2019-01-01')])
    expect([stored.governing.map((x) => x.id), stored.higher.map((x) => x.id)]).toEqual([['d'], ['c']])
  })

  it('keeps an older plan of the governing level apart as history, replaced by the newer one, in stored results too', () => {
    const z = (id: string, plan_level: string, approved_at: string) =>
      ({ id, plan_name: id, plan_level, approved_at, decision_no: `${id}/QĐ` }) as never
    const stored = planGroups([
      z('old', 'QHPK 1/2000', '2017-06-12'),
      z('new', 'QHPK 1/2000', '2023-09-15'),
      z('qhc', 'QHC', '2016-01-01'),
    ])
    expect([stored.governing, stored.history, stored.higher].map((g) => g.map((x) => x.id))).toEqual([
      ['new'],
      ['old'],
      ['qhc'],
    ])
    expect(stored.history[0]?.replaced_by).toEqual({ decision_no: 'new/QĐ', approved_at: '2023-09-15' })
  })

  it('counts the distinct plans among the zones, whatever number of zones each has', () => {
    const z = (plan_level: string, decision_no: string) =>
      ({ plan_level, decision_no, approved_at: '2020-01-01' }) as never
    expect(planCount([z('QHPK 1/2000', '1'), z('QHPK 1/2000', '1')])).toBe(1)
    expect(planCount([z('QHPK 1/2000', '1'), z('QHPK 1/2000', '2'), z('QHC', '3')])).toBe(3)
  })

  it('recognises simulated data by its name, with or without diacritics', () => {
    expect(isSimulated({ dataset: 'demo', name: 'Phường mô phỏng — Dữ liệu mô phỏng', data_date: '2026-06-30' })).toBe(
      true,
    )
    expect(
      isSimulated({ dataset: 'hcm-2024', name: 'Sở Tài nguyên và Môi trường TP.HCM', data_date: '2024-01-01' }),
    ).toBe(false)
  })

  it('adds ward, district and province to the address only when it does not already name them', () => {
    expect(
      fullAddress({
        address: '24 Đường Đinh Tiên Hoàng, Phường Gia An',
        ward: 'Phường Gia An',
        district: '',
        province: 'Thành phố Hồ Chí Minh',
      }),
    ).toBe('24 Đường Đinh Tiên Hoàng, Phường Gia An, Thành phố Hồ Chí Minh')
  })
})
