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
})
