import { describe, expect, it } from 'vitest'
import { placeLine } from './place-line.ts'

describe('placeLine', () => {
  it('names the ward once when the address already ends with it', () => {
    expect(placeLine(['12 Đường Số 5, Phường Gia An', 'Phường Gia An', 'Thành phố Hồ Chí Minh'])).toBe(
      '12 Đường Số 5, Phường Gia An, Thành phố Hồ Chí Minh',
    )
  })

  it('keeps every distinct part and drops empty ones', () => {
    expect(placeLine(['', 'Phường Gia An', null, undefined, 'Thành phố Hồ Chí Minh'])).toBe(
      'Phường Gia An, Thành phố Hồ Chí Minh',
    )
  })

  it('treats a part written without diacritics or in another case as the same name', () => {
    expect(placeLine(['12 Duong So 5, phuong gia an', 'Phường Gia An'])).toBe('12 Duong So 5, phuong gia an')
  })

  it('names the province once when the address already writes it another way', () => {
    expect(
      placeLine([
        '182 Nguyễn Thị Minh Khai, Phường 6, Quận 3, TP. Hồ Chí Minh',
        'Phường 6',
        'Quận 3',
        'Thành phố Hồ Chí Minh',
      ]),
    ).toBe('182 Nguyễn Thị Minh Khai, Phường 6, Quận 3, TP. Hồ Chí Minh')
    expect(placeLine(['25 Ngô Quyền, Sơn Trà, TP.HCM', 'Thành phố Hồ Chí Minh'])).toBe('25 Ngô Quyền, Sơn Trà, TP.HCM')
    expect(placeLine(['25 Ngô Quyền, quận Sơn Trà, TP. Đà Nẵng', 'Thành phố Hồ Chí Minh'])).toBe(
      '25 Ngô Quyền, quận Sơn Trà, TP. Đà Nẵng, Thành phố Hồ Chí Minh',
    )
  })
})
