import { describe, expect, it } from 'vitest'
import { dxfLayerTable, dxfText, dxfUnicode, dxfWords } from './dxf.ts'

describe('DXF text', () => {
  it('escapes every character outside ASCII, and MTEXT’s own control characters', () => {
    expect(dxfUnicode('Thửa {a\\b}').join('')).toBe('Th\\U+1EEDa \\{a\\\\b\\}')
    // Decomposed input (as some keyboards type it) is composed first: one escape per letter.
    expect(dxfUnicode('ư\u0309')).toEqual(['\\U+1EED'])
  })

  it('cuts long words into 250-character chunks without splitting an escape, the last one as the text itself', () => {
    const pairs = dxfWords('GHI_CHU', 1, 2, 0.5, `${'a'.repeat(249)}ử${'b'.repeat(10)}`)
    expect(pairs.filter(([code]) => code === 3)).toEqual([[3, `${'a'.repeat(249)}\\U+1EED`]])
    expect(pairs.at(-1)).toEqual([1, 'b'.repeat(10)])
  })

  it('writes each group code right-aligned in three characters with CRLF line ends', () => {
    expect(dxfText([...dxfLayerTable([{ name: 'RANH', color: 1 }]), [0, 'EOF']])).toBe(
      [
        '  0',
        'TABLE',
        '  2',
        'LAYER',
        ' 70',
        '1',
        '  0',
        'LAYER',
        '  2',
        'RANH',
        ' 70',
        '0',
        ' 62',
        '1',
        '  6',
        'CONTINUOUS',
        '  0',
        'ENDTAB',
        '  0',
        'EOF',
        '',
      ].join('\r\n'),
    )
  })
})
