import { describe, expect, it } from 'vitest'
import { inexactNote } from './search-note.ts'

describe('the search list’s note on inexact answers', () => {
  it('says there is no exact match when no answer holds every word typed', () => {
    expect(inexactNote('nguyen hue', ['Đường Nguyễn Công Trứ', 'Đường Nguyễn Văn Thủ'])).toBe(
      'Không có kết quả đúng “nguyen hue”; các kết quả gần giống:',
    )
  })

  it('says nothing when an answer matches, with or without diacritics, or when there is no answer', () => {
    expect(inexactNote('nguyen hue', ['Đường Nguyễn Huệ', 'Đường Nguyễn Công Trứ'])).toBeUndefined()
    expect(inexactNote('Nguyễn Huệ', ['12 Đường Nguyễn Huệ, Phường Bến Nghé'])).toBeUndefined()
    expect(inexactNote('nguyen hue', [])).toBeUndefined()
  })
})
