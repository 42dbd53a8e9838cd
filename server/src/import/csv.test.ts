import { describe, expect, it } from 'vitest'
import { CsvParser, detectDelimiter } from './csv.ts'
import { ImportError } from './errors.ts'

const parseAll = (text: string, delimiter = ',', chunk = text.length) => {
  const p = new CsvParser(delimiter)
  const out = []
  for (let i = 0; i < text.length; i += chunk) out.push(...p.push(text.slice(i, i + chunk)))
  out.push(...p.end())
  return out
}

describe('CsvParser', () => {
  it('splits quoted fields holding the delimiter, doubled quotes and line breaks', () => {
    const text = 'ten,ghi_chu\r\n"Nguyễn Huệ, Quận 1","Nói ""đẹp""\nvà dài"\r\nLê Lợi,\n'
    expect(parseAll(text)).toEqual([
      { line: 1, fields: ['ten', 'ghi_chu'] },
      { line: 2, fields: ['Nguyễn Huệ, Quận 1', 'Nói "đẹp"\nvà dài'] },
      { line: 4, fields: ['Lê Lợi', ''] },
    ])
  })

  it('gives the same records whatever the chunk boundaries, even inside a "" escape or a CRLF', () => {
    const text = 'a;b\r\n"x""y";"1\r\n2"\r\n"q";\r\nlast;row'
    const whole = parseAll(text, ';')
    for (const size of [1, 2, 3, 5, 7]) expect(parseAll(text, ';', size)).toEqual(whole)
    expect(whole.map((r) => r.fields)).toEqual([
      ['a', 'b'],
      ['x"y', '1\r\n2'],
      ['q', ''],
      ['last', 'row'],
    ])
  })

  it('skips blank lines but keeps counting them in line numbers', () => {
    expect(parseAll('h\n\nv1\n\n\nv2').map((r) => [r.line, r.fields[0]])).toEqual([
      [1, 'h'],
      [3, 'v1'],
      [6, 'v2'],
    ])
  })

  it('fails the file when a quote is still open at the end', () => {
    expect(() => parseAll('a,b\n1,"không đóng\n2,3\n')).toThrow(ImportError)
    expect(() => parseAll('a,b\n1,"không đóng\n2,3\n')).toThrow(/dòng 2/)
  })

  it('keeps text after a closing quote rather than failing', () => {
    expect(parseAll('"12" m,x').map((r) => r.fields)).toEqual([['12 m', 'x']])
  })
})

describe('detectDelimiter', () => {
  it('picks the separator the header uses most', () => {
    expect(detectDelimiter('tinh;ten_duong;vt1')).toBe(';')
    expect(detectDelimiter('tinh,ten_duong,vt1')).toBe(',')
    expect(detectDelimiter('tinh\tten_duong\tvt1')).toBe('\t')
    expect(detectDelimiter('mot_cot')).toBe(',')
  })
})
