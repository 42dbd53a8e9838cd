import fc from 'fast-check'
import { describe, expect, it } from 'vitest'
import { foldVietnamese } from './fold.ts'
import { vietnameseText } from './test-fold-cases.ts'

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
  it('answers plain lowercase ASCII words with single spaces for any Vietnamese text, and folds its own answer to itself', () => {
    fc.assert(
      fc.property(vietnameseText, (text) => {
        const folded = foldVietnamese(text)
        expect(folded).toMatch(/^([a-z0-9.,\-/()'"&:;#<>*]+( [a-z0-9.,\-/()'"&:;#<>*]+)*)?$/)
        expect(foldVietnamese(folded)).toBe(folded)
      }),
    )
  })
})
