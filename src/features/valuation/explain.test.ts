import { describe, expect, it } from 'vitest'
import { confidenceWords, planningSummary, positionReason, streetPhrase } from './explain.ts'
import { planningFixture } from './test-fixtures.ts'

describe('why the state price has its position', () => {
  it('says VT1 is street frontage without saying "đường" twice', () => {
    expect(positionReason('VT1', 'Đường Đinh Tiên Hoàng', 0)).toBe(
      'Vị trí 1: thửa đất có mặt tiền Đường Đinh Tiên Hoàng.',
    )
    expect(positionReason('VT2', 'Lê Lợi', 6)).toBe(
      'Vị trí 2: thửa đất trong hẻm rộng 6 m — hẻm rộng, thông ra đường Lê Lợi.',
    )
  })

  it('adds the word "đường" only to a name that does not begin with a road word', () => {
    expect(streetPhrase('Đại lộ số 2')).toBe('Đại lộ số 2')
    expect(streetPhrase('đường số 5')).toBe('đường số 5')
    expect(streetPhrase('Nguyễn Huệ')).toBe('đường Nguyễn Huệ')
    expect(streetPhrase('Đường Đinh Tiên Hoàng')).not.toMatch(/đường Đường/i)
  })

  it('names the alley width that put the parcel at VT2–VT4', () => {
    expect(positionReason('VT3', 'Đường A', 2.5)).toBe(
      'Vị trí 3: thửa đất trong hẻm rộng 2,5 m — hẻm hẹp hơn vị trí 2.',
    )
    expect(positionReason('VT2', 'Đường A', 6)).toContain('hẻm rộng 6 m')
  })

  it('says when the parcel record, not the form, decided the position', () => {
    expect(positionReason('VT4', 'Đường A', null)).toBe(
      'Vị trí 4: thửa đất trong hẻm — hẻm nhỏ nhất theo bảng giá (theo dữ liệu thửa đất).',
    )
  })
})

describe('confidence in words', () => {
  it('uses the level the server calibrated', () => {
    expect(confidenceWords({ confidence: 0.85, confidence_level: 'cao' })).toBe('Cao')
    expect(confidenceWords({ confidence: 0.7, confidence_level: 'trung_binh' })).toBe('Trung bình')
  })

  it.each([
    [0.9, 'Cao'],
    [0.8, 'Cao'],
    [0.75, 'Trung bình'],
    [0.65, 'Trung bình'],
    [0.6, 'Thấp'],
    [0.3, 'Thấp'],
  ])(
    'reads a saved result without a level, %s, as "%s" (core/valuation/confidence.ts: high from 80 %%, medium from 65 %%)',
    (c, words) => {
      expect(confidenceWords({ confidence: c })).toBe(words)
    },
  )
})

describe('planning situation', () => {
  it('says "vướng quy hoạch" with the area inside a road reserve', () => {
    expect(planningSummary(planningFixture)).toEqual({
      affected: true,
      text: 'Vướng quy hoạch: 12,5 m² nằm trong lộ giới Đường Đinh Tiên Hoàng (lộ giới 20 m).',
    })
  })

  it('adds up the area taken by several reserves', () => {
    const two = {
      ...planningFixture,
      road_reserves: [...planningFixture.road_reserves, { road_name: 'Đường B', width_m: 12, affected_area_m2: 3.25 }],
    }
    expect(planningSummary(two).text).toMatch(/^Vướng quy hoạch: 15,8 m² nằm trong lộ giới /)
  })

  it('calls a parcel in a non-residential zone affected', () => {
    const park = {
      ...planningFixture,
      road_reserves: [],
      zones: [{ ...planningFixture.zones[0]!, land_use_code: 'DKV', land_use_name: 'Đất công viên, cây xanh' }],
    }
    expect(planningSummary(park)).toEqual({
      affected: true,
      text: 'Vướng quy hoạch: thửa nằm trong khu quy hoạch Đất công viên, cây xanh (DKV), không phải đất ở.',
    })
  })

  it('says a residential parcel without reserves is clear', () => {
    expect(planningSummary({ ...planningFixture, road_reserves: [] })).toEqual({
      affected: false,
      text: 'Không vướng quy hoạch: thuộc khu Đất ở tại đô thị (ODT).',
    })
  })
})
