import { describe, expect, it } from 'vitest'
import { fileName } from './download.ts'

describe('export file names', () => {
  it('folds Vietnamese into a plain slug', () => {
    expect(fileName('Sơ đồ tờ 12 thửa 34', 'dxf')).toBe('so-do-to-12-thua-34.dxf')
    expect(fileName('***', 'csv')).toBe('so-do.csv')
  })
})
