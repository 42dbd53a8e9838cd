/**
 * PDF's object syntax (ISO 32000-1 §7.2–7.3): numbers, strings, names, arrays, dictionaries and
 * indirect references, read from a byte buffer. The same lexer reads content streams, whose operators
 * are the bare keywords between operands.
 */

export class PdfName {
  readonly name: string
  constructor(name: string) {
    this.name = name
  }
}

export class PdfString {
  readonly bytes: Buffer
  constructor(bytes: Buffer) {
    this.bytes = bytes
  }

  /** Text strings are UTF-16BE with a byte order mark, or PDFDocEncoding (Latin-1 for what matters here). */
  text(): string {
    const b = this.bytes
    if (b.length >= 2 && b[0] === 0xfe && b[1] === 0xff) return Buffer.from(b.subarray(2)).swap16().toString('utf16le')
    return b.toString('latin1')
  }
}

export class PdfRef {
  readonly num: number
  readonly gen: number
  constructor(num: number, gen: number) {
    this.num = num
    this.gen = gen
  }
}

export type PdfDict = Map<string, PdfValue>
export type PdfValue = null | boolean | number | PdfName | PdfString | PdfRef | PdfDict | PdfValue[]

/** The buffer ended inside a token or an object: the caller reads a larger window, or the file is cut short. */
export class PdfTruncated extends Error {}

/** Bytes that are not PDF syntax. */
export class PdfSyntaxError extends Error {}

type Token =
  | { t: 'num'; v: number }
  | { t: 'name'; v: string }
  | { t: 'str'; v: Buffer }
  | { t: 'punct'; v: '[' | ']' | '<<' | '>>' | '{' | '}' }
  | { t: 'kw'; v: string }
  | { t: 'eof' }

const isWhite = (c: number) => c === 0x20 || c === 0x0a || c === 0x0d || c === 0x09 || c === 0x0c || c === 0x00
const isDelim = (c: number) =>
  c === 0x28 ||
  c === 0x29 ||
  c === 0x3c ||
  c === 0x3e ||
  c === 0x5b ||
  c === 0x5d ||
  c === 0x7b ||
  c === 0x7d ||
  c === 0x2f ||
  c === 0x25
const hexValue = (c: number) =>
  c >= 0x30 && c <= 0x39 ? c - 0x30 : c >= 0x41 && c <= 0x46 ? c - 0x37 : c >= 0x61 && c <= 0x66 ? c - 0x57 : -1

export class PdfLexer {
  pos: number
  readonly buf: Buffer
  readonly whole: boolean

  /**
   * `whole`: the buffer holds everything there is (a decoded content stream), so its end ends the last
   * token; otherwise it is a window into the file and an object running past it needs a larger one.
   */
  constructor(buf: Buffer, start = 0, whole = false) {
    this.buf = buf
    this.pos = start
    this.whole = whole
  }

  ended(): Error {
    return this.whole ? new PdfSyntaxError('dữ liệu kết thúc giữa chừng') : new PdfTruncated()
  }

  skipWhite(): void {
    const b = this.buf
    while (this.pos < b.length) {
      const c = b[this.pos]!
      if (isWhite(c)) this.pos++
      else if (c === 0x25) while (this.pos < b.length && b[this.pos] !== 0x0a && b[this.pos] !== 0x0d) this.pos++
      else break
    }
  }

  next(): Token {
    this.skipWhite()
    const b = this.buf
    if (this.pos >= b.length) return { t: 'eof' }
    const c = b[this.pos]!
    if (c === 0x28) return { t: 'str', v: this.literalString() }
    if (c === 0x3c) {
      if (this.at(this.pos + 1) === 0x3c) {
        this.pos += 2
        return { t: 'punct', v: '<<' }
      }
      return { t: 'str', v: this.hexString() }
    }
    if (c === 0x3e) {
      if (this.at(this.pos + 1) !== 0x3e) throw new PdfSyntaxError(`'>' lẻ ở byte ${this.pos}`)
      this.pos += 2
      return { t: 'punct', v: '>>' }
    }
    if (c === 0x5b || c === 0x5d || c === 0x7b || c === 0x7d) {
      this.pos++
      return { t: 'punct', v: String.fromCharCode(c) as '[' | ']' | '{' | '}' }
    }
    if (c === 0x2f) {
      this.pos++
      return { t: 'name', v: this.regular(true) }
    }
    if (c === 0x29) throw new PdfSyntaxError(`')' lẻ ở byte ${this.pos}`)
    const word = this.regular(false)
    if (/^[+-]?(\d+\.?\d*|\.\d+)$/.test(word)) return { t: 'num', v: Number(word) }
    return { t: 'kw', v: word }
  }

  /** The byte at i; past the buffer's end the object is incomplete. */
  private at(i: number): number {
    if (i >= this.buf.length) throw this.ended()
    return this.buf[i]!
  }

  /** A run of regular characters; in a name, #xx is a byte in hexadecimal. */
  private regular(name: boolean): string {
    const b = this.buf
    const start = this.pos
    while (this.pos < b.length && !isWhite(b[this.pos]!) && !isDelim(b[this.pos]!)) this.pos++
    // A token that reaches the buffer's end may go on in the bytes not read yet.
    if (this.pos >= b.length && !this.whole) throw new PdfTruncated()
    const raw = b.toString('latin1', start, this.pos)
    return name ? raw.replace(/#([0-9a-fA-F]{2})/g, (_, h: string) => String.fromCharCode(parseInt(h, 16))) : raw
  }

  private literalString(): Buffer {
    const out: number[] = []
    let depth = 0
    this.pos++
    for (;;) {
      const c = this.at(this.pos++)
      if (c === 0x29 && depth === 0) return Buffer.from(out)
      if (c === 0x28) depth++
      if (c === 0x29) depth--
      if (c !== 0x5c) {
        out.push(c)
        continue
      }
      const e = this.at(this.pos++)
      const simple: Record<number, number> = {
        0x6e: 0x0a,
        0x72: 0x0d,
        0x74: 0x09,
        0x62: 0x08,
        0x66: 0x0c,
        0x28: 0x28,
        0x29: 0x29,
        0x5c: 0x5c,
      }
      if (simple[e] !== undefined) out.push(simple[e])
      else if (e >= 0x30 && e <= 0x37) {
        let v = e - 0x30
        for (let k = 0; k < 2 && this.at(this.pos) >= 0x30 && this.at(this.pos) <= 0x37; k++)
          v = v * 8 + (this.buf[this.pos++]! - 0x30)
        out.push(v & 0xff)
      } else if (e === 0x0d) {
        if (this.at(this.pos) === 0x0a) this.pos++
      } else if (e !== 0x0a) out.push(e)
    }
  }

  private hexString(): Buffer {
    const digits: number[] = []
    this.pos++
    for (;;) {
      const c = this.at(this.pos++)
      if (c === 0x3e) break
      const v = hexValue(c)
      if (v >= 0) digits.push(v)
      else if (!isWhite(c)) throw new PdfSyntaxError(`chuỗi hex hỏng ở byte ${this.pos - 1}`)
    }
    if (digits.length % 2) digits.push(0)
    const out = Buffer.alloc(digits.length / 2)
    for (let i = 0; i < out.length; i++) out[i] = digits[2 * i]! * 16 + digits[2 * i + 1]!
    return out
  }
}

/** Reads objects from a lexer: a value, or a keyword where the caller expects one (`obj`, `stream`, an operator). */
export class PdfParser {
  readonly lex: PdfLexer
  constructor(lex: PdfLexer) {
    this.lex = lex
  }

  /** The next value, or the keyword found instead of one. */
  valueOrKeyword(): PdfValue | { keyword: string } {
    const tok = this.lex.next()
    switch (tok.t) {
      case 'eof':
        throw this.lex.ended()
      case 'num':
        return this.maybeRef(tok.v)
      case 'name':
        return new PdfName(tok.v)
      case 'str':
        return new PdfString(tok.v)
      case 'kw':
        if (tok.v === 'true' || tok.v === 'false') return tok.v === 'true'
        if (tok.v === 'null') return null
        return { keyword: tok.v }
      case 'punct':
        if (tok.v === '[') return this.array()
        if (tok.v === '<<') return this.dict()
        throw new PdfSyntaxError(`'${tok.v}' không đúng chỗ ở byte ${this.lex.pos}`)
    }
  }

  value(): PdfValue {
    const v = this.valueOrKeyword()
    if (isKeyword(v)) throw new PdfSyntaxError(`gặp '${v.keyword}' thay vì một giá trị ở byte ${this.lex.pos}`)
    return v
  }

  /** `n g R` is a reference; any other number stands alone (the lexer is rewound after peeking). */
  private maybeRef(n: number): PdfValue {
    if (!Number.isInteger(n) || n < 0) return n
    const save = this.lex.pos
    const gen = this.lex.next()
    if (gen.t === 'num' && Number.isInteger(gen.v)) {
      const r = this.lex.next()
      if (r.t === 'kw' && r.v === 'R') return new PdfRef(n, gen.v)
    }
    this.lex.pos = save
    return n
  }

  private array(): PdfValue[] {
    const out: PdfValue[] = []
    for (;;) {
      const save = this.lex.pos
      const tok = this.lex.next()
      if (tok.t === 'punct' && tok.v === ']') return out
      this.lex.pos = save
      out.push(this.value())
    }
  }

  private dict(): PdfDict {
    const out: PdfDict = new Map()
    for (;;) {
      const tok = this.lex.next()
      if (tok.t === 'punct' && tok.v === '>>') return out
      if (tok.t === 'eof') throw this.lex.ended()
      if (tok.t !== 'name') throw new PdfSyntaxError(`khóa từ điển không phải tên ở byte ${this.lex.pos}`)
      out.set(tok.v, this.value())
    }
  }
}

export const isKeyword = (v: unknown): v is { keyword: string } => typeof v === 'object' && v !== null && 'keyword' in v
export const isDict = (v: PdfValue | undefined): v is PdfDict => v instanceof Map
export const nameOf = (v: PdfValue | undefined): string | undefined => (v instanceof PdfName ? v.name : undefined)

/** A number, also when written as a string: the OGC best practice writes its numbers as `(107.75)`. */
export function numberOf(v: PdfValue | undefined): number | undefined {
  if (typeof v === 'number') return v
  if (v instanceof PdfString) {
    const n = Number(v.text().trim())
    return v.text().trim() !== '' && Number.isFinite(n) ? n : undefined
  }
  return undefined
}
