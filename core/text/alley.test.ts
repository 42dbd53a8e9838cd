import { describe, expect, it } from 'vitest'
import { alleyWord } from './alley.ts'

describe('alley names', () => {
  it('reads hẻm, ngõ, ngách and kiệt at the start of a name, with or without diacritics', () => {
    expect(alleyWord('Hẻm 12 Nguyễn Huệ')).toBe('Hẻm')
    expect(alleyWord('ngõ 5 Phố Huế')).toBe('Ngõ')
    expect(alleyWord('Ngách 3/12')).toBe('Ngách')
    expect(alleyWord(' Kiet 34 Le Loi')).toBe('Kiệt')
  })

  it('leaves streets alone, also those whose name holds the word later or starts with its letters', () => {
    expect(alleyWord('Nguyễn Huệ')).toBeNull()
    expect(alleyWord('Đường hẻm 5')).toBeNull()
    expect(alleyWord('Ngô Quyền')).toBeNull()
    expect(alleyWord('Hemlock')).toBeNull()
    expect(alleyWord('constructor')).toBeNull()
  })
})
