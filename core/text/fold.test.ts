import { describe, expect, it } from 'vitest'
import { foldVietnamese } from './fold.ts'

describe('foldVietnamese', () => {
  it('lets "nguyen hue" match "Nguyễn Huệ"', () => {
    expect(foldVietnamese('Nguyễn Huệ')).toBe('nguyen hue')
  })
  it('folds đ and Đ to d', () => {
    expect(foldVietnamese('Đường Điện Biên Phủ')).toBe('duong dien bien phu')
  })
  it('collapses runs of white space', () => {
    expect(foldVietnamese('  Lê   Lợi ')).toBe('le loi')
  })
})
