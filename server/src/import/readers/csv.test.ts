import { Readable } from 'node:stream'
import { describe, expect, it } from 'vitest'
import { ImportError } from '../errors.ts'
import { csvRecords, detectDelimiter } from './csv.ts'

/** The records of `text` (UTF-8) fed in chunks of `chunk` bytes, their fields read back as UTF-8. */
const parseAll = async (text: string | Buffer, delimiter = ',', chunk = Infinity) => {
  const bytes = typeof text === 'string' ? Buffer.from(text, 'utf8') : text
  const chunks: Buffer[] = []
  for (let i = 0; i < bytes.length; i += Math.min(chunk, bytes.length)) chunks.push(bytes.subarray(i, i + chunk))
  const out = []
  for await (const r of csvRecords(Readable.from(chunks), delimiter))
    out.push({ line: r.line, fields: r.fields.map((f) => Buffer.from(f, 'latin1').toString('utf8')) })
  return out
}

describe('reading CSV records', () => {
  it('splits quoted fields holding the delimiter, doubled quotes and line breaks', async () => {
    const text = 'ten,ghi_chu\r\n"Nguyễn Huệ, Quận 1","Nói ""đẹp""\nvà dài"\r\nLê Lợi,\r\n'
    expect(await parseAll(text)).toEqual([
      { line: 1, fields: ['ten', 'ghi_chu'] },
      { line: 2, fields: ['Nguyễn Huệ, Quận 1', 'Nói "đẹp"\nvà dài'] },
      { line: 4, fields: ['Lê Lợi', ''] },
    ])
  })

  it('gives the same records whatever the chunk boundaries, even inside a "" escape, a CRLF or a letter’s bytes', async () => {
    const text = 'a;b\r\n"x""y";"1\r\n2"\r\n"q";\r\nlast;dòng'
    const whole = await parseAll(text, ';')
    for (const size of [1, 2, 3, 5, 7]) expect(await parseAll(text, ';', size)).toEqual(whole)
    expect(whole.map((r) => r.fields)).toEqual([
      ['a', 'b'],
      ['x"y', '1\r\n2'],
      ['q', ''],
      ['last', 'dòng'],
    ])
  })

  it('ends a record at LF or CRLF, whichever each line of the file uses', async () => {
    expect((await parseAll('a,b\r\n1,2\n3,4\r\n5,6')).map((r) => r.fields)).toEqual([
      ['a', 'b'],
      ['1', '2'],
      ['3', '4'],
      ['5', '6'],
    ])
  })

  it('skips blank lines but keeps counting them in line numbers', async () => {
    expect((await parseAll('h\n\nv1\n\n\nv2')).map((r) => [r.line, r.fields[0]])).toEqual([
      [1, 'h'],
      [3, 'v1'],
      [6, 'v2'],
    ])
  })

  it('leaves a UTF-8 byte-order mark out of the first column’s name and the text as bytes, however it is split', async () => {
    const text = Buffer.concat([Buffer.from([0xef, 0xbb, 0xbf]), Buffer.from('số_thửa,chủ\n12,Lê Văn Tám\n')])
    for (const size of [1, 2, 4, Infinity])
      expect((await parseAll(text, ',', size)).map((r) => r.fields)).toEqual([
        ['số_thửa', 'chủ'],
        ['12', 'Lê Văn Tám'],
      ])
  })

  it('numbers records after one with a quoted CRLF by the lines a text editor shows', async () => {
    expect((await parseAll('a,b\r\n"x\r\ny",2\r\n\r\n3,4\r\n')).map((r) => r.line)).toEqual([1, 2, 5])
  })

  it('fails the file when a quote is still open at the end, naming the line it opened on', async () => {
    await expect(parseAll('a,b\n1,"không đóng\n2,3\n')).rejects.toThrow(ImportError)
    await expect(parseAll('a,b\n\n1,"không đóng\n2,3\n')).rejects.toThrow(/dòng 3 không được đóng/)
  })

  it('keeps a stray quote inside a field, and text after a closing quote, as text rather than failing', async () => {
    expect((await parseAll('"12" m,x\n3"4,y')).map((r) => r.fields)).toEqual([
      ['"12" m', 'x'],
      ['3"4', 'y'],
    ])
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
