import { describe, expect, it } from 'vitest'
import { parseSheetParcel } from './sheet-parcel.ts'

describe('tờ/thửa queries', () => {
  it.each([
    ['tờ 12 thửa 345', 12, 345],
    ['Tờ 12, thửa 345', 12, 345],
    ['to 12 thua 345', 12, 345],
    ['tờ số 12 thửa số 345', 12, 345],
    ['Tờ bản đồ số 12, thửa đất số 345', 12, 345],
    ['TBĐ 12 thửa 345', 12, 345],
    ['t12 th345', 12, 345],
    ['thửa 345 tờ 12', 12, 345],
    ['12/345', 12, 345],
    [' 12 / 345 ', 12, 345],
  ])('reads %j as sheet %d, parcel %d', (text, sheet, parcel) => {
    expect(parseSheetParcel(text)).toEqual({ sheet_no: sheet, parcel_no: parcel })
  })

  it('keeps what follows the numbers as the ward, folded', () => {
    expect(parseSheetParcel('tờ 12 thửa 345, Phường Gia An')).toEqual({
      sheet_no: 12,
      parcel_no: 345,
      ward: 'phuong gia an',
    })
  })

  it.each(['nguyen hue', '25/2 Phan Đăng Lưu', 'tờ 12', 'thửa 345', '12/345/6', 'tờ a thửa b', ''])(
    'leaves %j to the address search',
    (text) => {
      expect(parseSheetParcel(text)).toBeNull()
    },
  )
})
