import { closeSync, createReadStream, fstatSync, openSync, readSync, type ReadStream } from 'node:fs'
import { decodeSmall } from './pdf-filters.ts'
import {
  isDict,
  isKeyword,
  nameOf,
  numberOf,
  PdfLexer,
  PdfParser,
  PdfRef,
  PdfSyntaxError,
  PdfTruncated,
  type PdfDict,
  type PdfValue,
} from './pdf-syntax.ts'

/** The file is not a PDF this reader can open: cut short, damaged, encrypted. */
export class PdfBroken extends Error {}

/** A stream object: its dictionary and where its (still encoded) bytes lie in the file. */
export class PdfStream {
  readonly dict: PdfDict
  readonly start: number
  readonly length: number
  constructor(dict: PdfDict, start: number, length: number) {
    this.dict = dict
    this.start = start
    this.length = length
  }
}

type XrefEntry = { type: 0 } | { type: 1; offset: number } | { type: 2; stream: number; index: number }

const WINDOW = 4096
/** No dictionary of a sheet's PDF comes near this; a larger "object" is a damaged file read as one. */
const MAX_OBJECT = 64 * 1024 * 1024

/**
 * A PDF opened for reading by random access: the file is never held in memory whole, since a scanned
 * sheet's image can be hundreds of megabytes. Objects are found through the cross-reference sections
 * (tables or streams, following /Prev through incremental updates); when those are missing or point
 * to the wrong bytes, as in a damaged file, the objects are found by scanning the file for `n g obj`.
 */
export class PdfFile {
  readonly path: string
  private readonly fd: number
  readonly size: number
  private xref = new Map<number, XrefEntry>()
  private cache = new Map<number, PdfValue | PdfStream>()
  private objectStreams = new Map<number, { offsets: Map<number, number>; data: Buffer; first: number }>()
  trailer: PdfDict = new Map()

  constructor(path: string) {
    this.path = path
    this.fd = openSync(path, 'r')
    this.size = fstatSync(this.fd).size
    try {
      if (!this.read(0, 1024).toString('latin1').includes('%PDF-')) throw new PdfBroken('không phải tệp PDF')
      if (!this.loadXref()) this.rebuildXref()
      if (this.trailer.get('Encrypt') !== undefined) throw new PdfBroken('PDF được mã hóa (có mật khẩu)')
    } catch (err) {
      closeSync(this.fd)
      throw err
    }
  }

  close(): void {
    closeSync(this.fd)
  }

  read(offset: number, length: number): Buffer {
    const len = Math.max(0, Math.min(length, this.size - offset))
    const buf = Buffer.alloc(len)
    let done = 0
    while (done < len) {
      const n = readSync(this.fd, buf, done, len - done, offset + done)
      if (n === 0) break
      done += n
    }
    return buf.subarray(0, done)
  }

  /** A stream's encoded bytes as a Node stream, for image data too large to hold. */
  readStream(s: PdfStream): ReadStream {
    return createReadStream(this.path, { start: s.start, end: s.start + s.length - 1 })
  }

  /** Follows references to the value they name; a missing object is null, as the standard says. */
  get(v: PdfValue | undefined): PdfValue | PdfStream | undefined {
    let value: PdfValue | PdfStream | undefined = v
    for (let hops = 0; value instanceof PdfRef; hops++) {
      if (hops > 32) throw new PdfBroken('tham chiếu vòng')
      value = this.object(value.num)
    }
    return value
  }

  dict(v: PdfValue | undefined): PdfDict | undefined {
    const d = this.get(v)
    return d instanceof PdfStream ? d.dict : isDict(d) ? d : undefined
  }

  stream(v: PdfValue | undefined): PdfStream | undefined {
    const s = this.get(v)
    return s instanceof PdfStream ? s : undefined
  }

  /** A small stream's decoded bytes (content, object and cross-reference streams). */
  decoded(s: PdfStream): Buffer {
    return decodeSmall(this.read(s.start, s.length), s.dict)
  }

  object(num: number): PdfValue | PdfStream {
    const cached = this.cache.get(num)
    if (cached !== undefined) return cached
    const e = this.xref.get(num)
    let value: PdfValue | PdfStream = null
    if (e?.type === 1) value = this.objectAt(e.offset, num)
    else if (e?.type === 2) value = this.fromObjectStream(e.stream, e.index, num)
    this.cache.set(num, value)
    return value
  }

  /** Parses `num gen obj <value> [stream … endstream]` at a byte offset, reading a larger window as needed. */
  private objectAt(offset: number, expect?: number): PdfValue | PdfStream {
    for (let size = WINDOW; ; size *= 4) {
      const buf = this.read(offset, size)
      try {
        return this.parseObject(buf, offset, expect)
      } catch (err) {
        if (!(err instanceof PdfTruncated)) throw err
        if (buf.length < size) throw new PdfBroken(`đối tượng ở byte ${offset} bị cắt cụt`)
        if (size > MAX_OBJECT) throw new PdfBroken(`đối tượng ở byte ${offset} quá lớn`)
      }
    }
  }

  private parseObject(buf: Buffer, offset: number, expect?: number): PdfValue | PdfStream {
    const p = new PdfParser(new PdfLexer(buf))
    const num = p.value()
    const gen = p.value()
    const kw = p.valueOrKeyword()
    if (
      typeof num !== 'number' ||
      typeof gen !== 'number' ||
      !isKeyword(kw) ||
      kw.keyword !== 'obj' ||
      (expect !== undefined && num !== expect)
    ) {
      throw new PdfBroken(`bảng tham chiếu trỏ sai chỗ (byte ${offset})`)
    }
    const value = p.value()
    if (!isDict(value)) return value
    const save = p.lex.pos
    const after = p.lex.next()
    if (after.t !== 'kw' || after.v !== 'stream') {
      p.lex.pos = save
      return value
    }
    // The data starts after the end of line that follows `stream` (CR LF or LF; a lone CR is tolerated).
    let start = p.lex.pos
    if (buf[start] === 0x0d) start++
    if (buf[start] === 0x0a) start++
    return new PdfStream(value, offset + start, this.streamLength(value, offset + start))
  }

  /**
   * /Length, checked against the `endstream` that must follow it; when it is absent or wrong (a
   * damaged file, an edited one), the data ends where `endstream` is found.
   */
  private streamLength(dict: PdfDict, start: number): number {
    const declared = numberOf(this.get(dict.get('Length')) as PdfValue)
    if (declared !== undefined && declared >= 0 && start + declared <= this.size) {
      const tail = this.read(start + declared, 32).toString('latin1')
      if (/^\s*endstream/.test(tail)) return declared
    }
    const found = this.find('endstream', start)
    if (found < 0) throw new PdfBroken(`luồng dữ liệu ở byte ${start} không có điểm kết thúc (tệp bị cắt cụt?)`)
    const before = this.read(Math.max(start, found - 2), found - Math.max(start, found - 2))
    let end = found
    if (before.at(-1) === 0x0a) end--
    if (before.at(-2) === 0x0d && before.at(-1) === 0x0a) end--
    else if (before.at(-1) === 0x0d) end--
    return end - start
  }

  /** Offset of the first occurrence of `text` at or after `from`, or −1; read in 1 MB steps. */
  private find(text: string, from: number): number {
    const step = 1 << 20
    for (let at = from; at < this.size; at += step - text.length) {
      const i = this.read(at, step).indexOf(text, 0, 'latin1')
      if (i >= 0) return at + i
    }
    return -1
  }

  private fromObjectStream(streamNum: number, index: number, num: number): PdfValue {
    let os = this.objectStreams.get(streamNum)
    if (!os) {
      const s = this.object(streamNum)
      if (!(s instanceof PdfStream) || nameOf(s.dict.get('Type')) !== 'ObjStm')
        throw new PdfBroken(`đối tượng ${num} trỏ tới luồng đối tượng hỏng`)
      const data = this.decoded(s)
      const n = numberOf(s.dict.get('N')) ?? 0
      const first = numberOf(s.dict.get('First')) ?? 0
      const header = new PdfParser(new PdfLexer(data.subarray(0, first), 0, true))
      const offsets = new Map<number, number>()
      for (let i = 0; i < n; i++) {
        const objNum = header.value()
        const off = header.value()
        if (typeof objNum !== 'number' || typeof off !== 'number') throw new PdfBroken('đầu luồng đối tượng hỏng')
        offsets.set(objNum, off)
      }
      os = { offsets, data, first }
      this.objectStreams.set(streamNum, os)
    }
    const off = os.offsets.get(num) ?? [...os.offsets.values()][index]
    if (off === undefined) return null
    return new PdfParser(new PdfLexer(os.data, os.first + off, true)).value()
  }

  /** Reads the cross-reference sections from `startxref` back through /Prev; false when they cannot be used. */
  private loadXref(): boolean {
    try {
      const tail = this.read(Math.max(0, this.size - 2048), 2048).toString('latin1')
      const m = /startxref\s+(\d+)/g
      let offset: number | undefined
      for (let hit = m.exec(tail); hit; hit = m.exec(tail)) offset = Number(hit[1])
      const seen = new Set<number>()
      let first = true
      while (offset !== undefined && !seen.has(offset)) {
        seen.add(offset)
        const trailer = this.xrefSection(offset)
        if (first) this.trailer = trailer
        first = false
        offset = numberOf(trailer.get('Prev'))
      }
      return !first && this.dict(this.trailer.get('Root')) !== undefined
    } catch (err) {
      if (err instanceof PdfBroken || err instanceof PdfSyntaxError || err instanceof PdfTruncated) {
        this.xref.clear()
        this.cache.clear()
        return false
      }
      throw err
    }
  }

  /** One section (a table and its trailer, or a cross-reference stream); entries already known (newer) win. */
  private xrefSection(offset: number): PdfDict {
    const head = this.read(offset, 4).toString('latin1')
    if (head !== 'xref') {
      const s = this.objectAt(offset)
      if (!(s instanceof PdfStream) || nameOf(s.dict.get('Type')) !== 'XRef')
        throw new PdfBroken('bảng tham chiếu hỏng')
      this.mergeXrefStream(s)
      return s.dict
    }
    const table = new Map<number, XrefEntry>()
    let trailer: PdfDict | undefined
    for (let size = 64 * 1024; !trailer; size *= 4) {
      const buf = this.read(offset + 4, size)
      try {
        trailer = this.parseXrefTable(buf, table)
      } catch (err) {
        if (!(err instanceof PdfTruncated) || buf.length < size)
          throw err instanceof PdfTruncated ? new PdfBroken('bảng tham chiếu bị cắt cụt') : err
      }
    }
    // A hybrid file lists its newer objects in a stream (/XRefStm) and marks them free in the table.
    const hybrid = numberOf(trailer.get('XRefStm'))
    if (hybrid !== undefined) {
      const s = this.objectAt(hybrid)
      if (s instanceof PdfStream) this.mergeXrefStream(s)
    }
    for (const [num, e] of table) if (!this.xref.has(num)) this.xref.set(num, e)
    return trailer
  }

  private parseXrefTable(buf: Buffer, table: Map<number, XrefEntry>): PdfDict {
    const lex = new PdfLexer(buf)
    const p = new PdfParser(lex)
    for (;;) {
      const tok = lex.next()
      if (tok.t === 'kw' && tok.v === 'trailer') {
        const d = p.value()
        if (!isDict(d)) throw new PdfBroken('trailer hỏng')
        return d
      }
      if (tok.t === 'eof') throw new PdfTruncated()
      const count = lex.next()
      if (tok.t !== 'num' || count.t !== 'num') throw new PdfBroken('bảng tham chiếu hỏng')
      for (let i = 0; i < count.v; i++) {
        const off = lex.next()
        const gen = lex.next()
        const kind = lex.next()
        if (off.t !== 'num' || gen.t !== 'num' || kind.t !== 'kw' || (kind.v !== 'n' && kind.v !== 'f'))
          throw new PdfBroken('bảng tham chiếu hỏng')
        const num = tok.v + i
        if (!table.has(num)) table.set(num, kind.v === 'n' && off.v > 0 ? { type: 1, offset: off.v } : { type: 0 })
      }
    }
  }

  /** A cross-reference stream (PDF 1.5): rows of /W-sized big-endian fields over the /Index ranges. */
  private mergeXrefStream(s: PdfStream): void {
    const w = (s.dict.get('W') as PdfValue[] | undefined)?.map((v) => numberOf(v) ?? 0)
    if (!w || w.length < 3) throw new PdfBroken('luồng tham chiếu thiếu /W')
    const data = this.decoded(s)
    const size = numberOf(s.dict.get('Size')) ?? 0
    const index = ((s.dict.get('Index') as PdfValue[] | undefined) ?? [0, size]).map((v) => numberOf(v) ?? 0)
    const rowLen = w[0]! + w[1]! + w[2]!
    let pos = 0
    const field = (width: number, dflt: number) => {
      if (width === 0) return dflt
      let v = 0
      for (let i = 0; i < width; i++) v = v * 256 + data[pos++]!
      return v
    }
    for (let k = 0; k + 1 < index.length; k += 2) {
      for (let i = 0; i < index[k + 1]!; i++) {
        if (pos + rowLen > data.length) return
        const num = index[k]! + i
        const type = field(w[0]!, 1)
        const a = field(w[1]!, 0)
        const b = field(w[2]!, 0)
        if (this.xref.has(num)) continue
        if (type === 1) this.xref.set(num, { type: 1, offset: a })
        else if (type === 2) this.xref.set(num, { type: 2, stream: a, index: b })
        else if (type === 0) this.xref.set(num, { type: 0 })
      }
    }
  }

  /**
   * A damaged file's objects, found by their `n g obj` headers (the last definition of a number wins,
   * as an incremental update would have it), and its catalog from a trailer or a /Type /Catalog.
   */
  private rebuildXref(): void {
    const step = 1 << 20
    const header = /(?<![0-9])(\d{1,10})\s+(\d{1,5})\s+obj\b/g
    const trailers: number[] = []
    for (let at = 0; at < this.size; at += step - 64) {
      const text = this.read(at, step).toString('latin1')
      for (let m = header.exec(text); m; m = header.exec(text))
        this.xref.set(Number(m[1]), { type: 1, offset: at + m.index })
      for (let i = text.indexOf('trailer'); i >= 0; i = text.indexOf('trailer', i + 1)) trailers.push(at + i)
    }
    for (const offset of trailers.reverse()) {
      const d = this.tryParse(() => new PdfParser(new PdfLexer(this.read(offset + 7, 64 * 1024))).value())
      if (isDict(d) && d.get('Root') !== undefined) {
        this.trailer = d
        break
      }
    }
    for (const [num, e] of [...this.xref]) {
      const obj = e.type === 1 ? this.tryParse(() => this.object(num)) : undefined
      const dict = obj instanceof PdfStream ? obj.dict : isDict(obj as PdfValue) ? (obj as PdfDict) : undefined
      const type = nameOf(dict?.get('Type'))
      if (obj instanceof PdfStream && type === 'ObjStm') this.registerObjectStream(num, obj)
      if (
        this.trailer.get('Root') === undefined &&
        (type === 'Catalog' || (type === 'XRef' && dict?.get('Root') !== undefined))
      ) {
        this.trailer = type === 'Catalog' ? new Map<string, PdfValue>([['Root', new PdfRef(num, 0)]]) : dict!
      }
    }
    if (this.dict(this.trailer.get('Root')) === undefined)
      throw new PdfBroken('không tìm thấy mục lục của tệp (tệp bị cắt cụt hoặc hỏng)')
  }

  private registerObjectStream(num: number, s: PdfStream): void {
    const n = numberOf(s.dict.get('N')) ?? 0
    const first = numberOf(s.dict.get('First')) ?? 0
    const header = this.tryParse(() => new PdfParser(new PdfLexer(this.decoded(s).subarray(0, first), 0, true)))
    for (let i = 0; i < n && header; i++) {
      const objNum = this.tryParse(() => header.value())
      this.tryParse(() => header.value())
      if (typeof objNum === 'number' && !this.xref.has(objNum))
        this.xref.set(objNum, { type: 2, stream: num, index: i })
    }
  }

  private tryParse<T>(fn: () => T): T | undefined {
    try {
      return fn()
    } catch {
      return undefined
    }
  }
}
