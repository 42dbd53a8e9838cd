import { describe, expect, it } from 'vitest'
import { streetClass } from './roads.ts'

describe('a street’s class without a class column', () => {
  it('reads an alley from its name, and keeps a street named after Ngô Quyền a street', () => {
    expect(streetClass(null, 'Hẻm 12 Lê Lợi')).toBe('alley')
    expect(streetClass(null, 'Ngõ 5 Phố Huế')).toBe('alley')
    expect(streetClass(null, 'Kiet 34 Le Loi')).toBe('alley')
    expect(streetClass(null, 'Ngô Quyền')).toBe('street')
    expect(streetClass(null, 'Nguyễn Huệ')).toBe('street')
  })
})
