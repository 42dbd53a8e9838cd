import { describe, expect, it } from 'vitest'
import { knownMeridians, meridianFor, provinceKey, provincesOnMeridian, resolveProvince } from './provinces.ts'

describe('province names', () => {
  it('resolves every usual spelling of Hồ Chí Minh City, with or without diacritics, to one province on 105°45′', () => {
    for (const name of [
      'TP. Hồ Chí Minh',
      'TP.HCM',
      'Tp Hồ Chí Minh',
      'Thành phố Hồ Chí Minh',
      'HCM',
      'Hồ Chí Minh',
      'Thanh pho Ho Chi Minh',
      'tp ho chi minh',
      'TPHCM',
      'Ho Chi Minh City',
      '  hồ  chí minh ',
    ]) {
      expect(resolveProvince(name), name).toMatchObject({ name: 'Thành phố Hồ Chí Minh', meridian: 105.75 })
    }
  })

  it('reads other cities and provinces the same way', () => {
    expect(resolveProvince('Hà Nội')?.meridian).toBe(105)
    expect(resolveProvince('TP Ha Noi')?.name).toBe('Thành phố Hà Nội')
    expect(resolveProvince('Tỉnh Bình Dương')?.meridian).toBe(105.75)
    expect(resolveProvince('Bà Rịa–Vũng Tàu')?.meridian).toBe(107.75)
    expect(resolveProvince('Khánh Hoà')?.name).toBe('Khánh Hòa')
    expect(resolveProvince('Thừa Thiên Huế')?.name).toBe('Thành phố Huế')
    expect(resolveProvince('Đăk Lăk')?.name).toBe('Đắk Lắk')
    expect(resolveProvince('Phường Bến Nghé')).toBeUndefined()
    expect(resolveProvince('')).toBeUndefined()
  })

  it('knows the 34 provinces after the 2025 merger and which meridians each now spans', () => {
    const merged = new Set(
      [
        'Hà Nội',
        'TP.HCM',
        'Đà Nẵng',
        'Huế',
        'Hải Phòng',
        'Cần Thơ',
        'Lai Châu',
        'Điện Biên',
        'Sơn La',
        'Lạng Sơn',
        'Quảng Ninh',
        'Thanh Hóa',
        'Nghệ An',
        'Hà Tĩnh',
        'Cao Bằng',
        'Tuyên Quang',
        'Lào Cai',
        'Thái Nguyên',
        'Phú Thọ',
        'Bắc Ninh',
        'Hưng Yên',
        'Ninh Bình',
        'Quảng Trị',
        'Quảng Ngãi',
        'Gia Lai',
        'Khánh Hòa',
        'Lâm Đồng',
        'Đắk Lắk',
        'Đồng Nai',
        'Tây Ninh',
        'Vĩnh Long',
        'Đồng Tháp',
        'Cà Mau',
        'An Giang',
      ].map((n) => resolveProvince(n)?.mergedInto),
    )
    expect(merged.size).toBe(34)
    expect(merged.has(undefined)).toBe(false)
    expect(resolveProvince('Bình Dương')?.mergedInto).toBe('Thành phố Hồ Chí Minh')
    // TP.HCM now takes in Bà Rịa–Vũng Tàu on 107°45′: the name gives 105°45′, data must say otherwise.
    expect(resolveProvince('TP.HCM')?.meridiansAfterMerger).toEqual([105.75, 107.75])
    expect(resolveProvince('Lâm Đồng')?.meridiansAfterMerger).toEqual([107.75, 108.5])
    expect(resolveProvince('Quảng Ninh')?.meridiansAfterMerger).toEqual([107.75])
  })

  it('folds names to one key', () => {
    expect(provinceKey('TP. Hồ Chí Minh')).toBe('hochiminh')
    expect(provinceKey('Thành phố Đà Nẵng')).toBe('danang')
  })

  it('gives a named province its meridian whatever the spelling, and the nearest meridian otherwise', () => {
    // A "TP. Hồ Chí Minh" column once fell to the nearest meridian, Bình Phước's 106°15′.
    expect(meridianFor(106.7, 'TP. Hồ Chí Minh')).toBe(105.75)
    expect(meridianFor(106.7, 'Thành phố Hồ Chí Minh')).toBe(105.75)
    expect(meridianFor(108.2)).toBe(108.25)
    expect(meridianFor(106.7, 'Không rõ')).toBe(106.5)
  })

  it('lists each meridian once, west to east, with the provinces on it', () => {
    expect(knownMeridians[0]).toBe(103)
    expect(knownMeridians.at(-1)).toBe(108.5)
    expect([...knownMeridians].sort((a, b) => a - b)).toEqual(knownMeridians)
    expect(provincesOnMeridian(105.75)).toEqual(expect.arrayContaining(['TP.HCM', 'Hải Phòng', 'Bình Dương']))
  })
})
