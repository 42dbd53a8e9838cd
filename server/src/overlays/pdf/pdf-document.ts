import { randomBytes } from 'node:crypto'
import { closeSync, createReadStream, fstatSync, openSync, readSync } from 'node:fs'
import { Readable } from 'node:stream'
import {
  decodePDFRawStream,
  EncryptedPDFError,
  PDFArray,
  PDFDict,
  PDFDocument,
  PDFHexString,
  PDFName,
  PDFNumber,
  PDFRawStream,
  PDFString,
  type PDFObject,
  type PDFPageLeaf,
} from 'pdf-lib'

/** The file is not a PDF this reader can open: cut short, damaged, encrypted. */
export class PdfBroken extends Error {}

/** A stream encoded in a way this reader does not decode; the message names the filter. */
export class PdfUnsupported extends Error {}

/**
 * Image data at least this large stays in the file and is read from it when decoded. pdf-lib parses a
 * PDF from bytes in memory and copies each stream's data, so given a whole 294 MB scanned sheet its load
 * alone peaked at 368 MB RSS; with the image set aside the whole read, image decoded, peaked at 174–186 MB
 * on sheets of 294 and 588 MB alike (docs/performance.md, "Geospatial PDF").
 */
export const SET_ASIDE_BYTES = 1 << 20

const WINDOW = 1 << 20
const OVERLAP = 64
/** A stream's dictionary is read back this far from `stream` to tell an image from an object stream. */
const DICT_LOOKBACK = 4096

type Range = { start: number; end: number }

/**
 * A PDF read with pdf-lib (cross-references, object streams, incremental updates, filters), except the
 * data of large images: before parsing, each image stream of SET_ASIDE_BYTES or more is replaced by a
 * short marker and remembered by its place in the file, so memory holds the document's structure, not
 * its scan. pdf-lib parses the objects in file order and does not trust cross-reference offsets, so
 * a file with bytes added in front, or with the marker's shorter data, reads as well.
 */
export class PdfDocument {
  readonly path: string
  readonly doc: PDFDocument
  readonly page: PDFPageLeaf
  /** Streams whose data was left in the file, with where it lies. */
  private readonly aside: Map<PDFRawStream, Range>

  private constructor(path: string, doc: PDFDocument, aside: Map<PDFRawStream, Range>) {
    this.path = path
    this.doc = doc
    this.aside = aside
    if (doc.getPageCount() === 0) throw new PdfBroken('không tìm thấy trang nào')
    this.page = doc.getPage(0).node
  }

  static async open(path: string): Promise<PdfDocument> {
    const { bytes, ranges, marker } = withoutLargeImages(path)
    let doc: PDFDocument
    try {
      // Invalid objects are errors, not warnings printed to the console and skipped.
      doc = await PDFDocument.load(bytes, { updateMetadata: false, throwOnInvalidObject: true })
    } catch (err) {
      // An encrypted file's object streams are ciphertext, so pdf-lib may fail on them before it reads the
      // trailer that says so; /Encrypt is a key of the trailer (or of the cross-reference stream) only.
      if (err instanceof EncryptedPDFError || bytes.includes('/Encrypt', 0, 'latin1'))
        throw new PdfBroken('PDF được mã hóa (có mật khẩu)')
      throw new PdfBroken('cấu trúc tệp hỏng hoặc bị cắt cụt')
    }
    const aside = new Map<PDFRawStream, Range>()
    for (const [, obj] of doc.context.enumerateIndirectObjects()) {
      if (!(obj instanceof PDFRawStream) || obj.contents.length > marker.length + 12) continue
      const text = Buffer.from(obj.contents).toString('latin1')
      const range = text.startsWith(marker) ? ranges[Number(text.slice(marker.length))] : undefined
      if (range) aside.set(obj, range)
    }
    try {
      return new PdfDocument(path, doc, aside)
    } catch (err) {
      throw err instanceof PdfBroken ? err : new PdfBroken('cây trang hỏng')
    }
  }

  /** How many streams were left in the file. */
  get setAside(): number {
    return this.aside.size
  }

  /** Follows a reference to the object it names (undefined when missing). */
  get(v: PDFObject | undefined): PDFObject | undefined {
    return v === undefined ? undefined : this.doc.context.lookup(v)
  }

  dict(v: PDFObject | undefined): PDFDict | undefined {
    const d = this.get(v)
    return d instanceof PDFRawStream ? d.dict : d instanceof PDFDict ? d : undefined
  }

  stream(v: PDFObject | undefined): PDFRawStream | undefined {
    const s = this.get(v)
    return s instanceof PDFRawStream ? s : undefined
  }

  array(v: PDFObject | undefined): PDFObject[] | undefined {
    const a = this.get(v)
    return a instanceof PDFArray ? a.asArray() : undefined
  }

  /** A number, also when written as a string: the OGC best practice writes its numbers as `(107.75)`. */
  number(v: PDFObject | undefined): number | undefined {
    const o = this.get(v)
    if (o instanceof PDFNumber) return o.asNumber()
    const text = this.text(o)?.trim()
    const n = Number(text)
    return text && Number.isFinite(n) ? n : undefined
  }

  numbers(v: PDFObject | undefined): number[] | undefined {
    const n = this.array(v)?.map((x) => this.number(x))
    return n?.every((x) => x !== undefined) ? (n as number[]) : undefined
  }

  name(v: PDFObject | undefined): string | undefined {
    const o = this.get(v)
    return o instanceof PDFName ? o.decodeText() : undefined
  }

  /** A text string (PDFDocEncoding or UTF-16 with its byte order mark). */
  text(v: PDFObject | undefined): string | undefined {
    const o = this.get(v)
    return o instanceof PDFString || o instanceof PDFHexString ? o.decodeText() : undefined
  }

  /** A string's bytes as written (a palette). */
  bytes(v: PDFObject | undefined): Buffer | undefined {
    const o = this.get(v)
    return o instanceof PDFString || o instanceof PDFHexString ? Buffer.from(o.asBytes()) : undefined
  }

  /** A stream's encoded length in bytes. */
  encodedLength(s: PDFRawStream): number {
    const r = this.aside.get(s)
    return r ? r.end - r.start : s.contents.length
  }

  /** A stream's encoded data, from memory or, for a large image, from the file. */
  encoded(s: PDFRawStream): Readable {
    const r = this.aside.get(s)
    return r ? createReadStream(this.path, { start: r.start, end: r.end - 1 }) : Readable.from([s.contents])
  }

  /** A small stream's decoded bytes (content streams, palettes) by pdf-lib's filters. */
  decoded(s: PDFRawStream): Buffer {
    if (this.aside.has(s)) throw new PdfUnsupported('luồng nội dung quá lớn')
    const parms = this.dict(s.dict.get(PDFName.of('DecodeParms')))
    if ((this.number(parms?.get(PDFName.of('Predictor'))) ?? 1) > 1)
      throw new PdfUnsupported('luồng nội dung nén với bộ dự đoán')
    try {
      return Buffer.from(decodePDFRawStream(s).decode())
    } catch (err) {
      throw new PdfUnsupported(`bộ lọc ${(err as Error).message}`)
    }
  }
}

/** Reads `length` bytes at `offset` into `buf` (a new one by default); fewer at the end of the file. */
function readAt(fd: number, offset: number, length: number, buf = Buffer.alloc(length)): Buffer {
  let done = 0
  while (done < length) {
    const n = readSync(fd, buf, done, length - done, offset + done)
    if (n === 0) break
    done += n
  }
  return buf.subarray(0, done)
}

/**
 * The file's bytes with the data of each large image replaced by `marker` and its number, and where
 * that data lies. A stream starts after `>> stream` and its end of line and ends before the end of line
 * that precedes `endstream` (ISO 32000-1 §7.3.8); the file is read once, in windows that overlap so a
 * keyword across two is seen. A stream with no end is left as it is, for pdf-lib to refuse.
 */
function withoutLargeImages(path: string): { bytes: Buffer; ranges: Range[]; marker: string } {
  const marker = `%qh-aside-${randomBytes(6).toString('hex')}-`
  const fd = openSync(path, 'r')
  try {
    const size = fstatSync(fd).size
    const parts: Buffer[] = []
    const ranges: Range[] = []
    let copied = 0
    let pos = 0
    let open: { keyword: number; start: number } | undefined
    const window = Buffer.alloc(WINDOW)
    for (let at = 0; at < size; at += WINDOW - OVERLAP) {
      const buf = readAt(fd, at, WINDOW, window)
      // A keyword that reaches into the overlap is read whole from the next window.
      const limit = at + WINDOW < size ? WINDOW - OVERLAP : buf.length
      for (let i = Math.max(0, pos - at); ;) {
        const word = open ? ENDSTREAM : STREAM
        const k = buf.indexOf(word, i)
        if (k < 0 || k + word.length + 2 > limit) break
        i = k + word.length
        if (!open) {
          const eol = buf[i] === 0x0d && buf[i + 1] === 0x0a ? 2 : buf[i] === 0x0a || buf[i] === 0x0d ? 1 : 0
          if (eol === 0 || !afterDictionary(buf, k)) continue
          open = { keyword: at + k, start: at + i + eol }
        } else {
          // The end of line before `endstream` is not part of the data.
          const end = at + k - (buf[k - 1] === 0x0a ? (buf[k - 2] === 0x0d ? 2 : 1) : buf[k - 1] === 0x0d ? 1 : 0)
          if (end - open.start >= SET_ASIDE_BYTES && isImage(fd, open.keyword)) {
            parts.push(readAt(fd, copied, open.start - copied), Buffer.from(`${marker}${ranges.length}\n`, 'latin1'))
            ranges.push({ start: open.start, end })
            copied = end
          }
          open = undefined
        }
        pos = at + i
      }
    }
    parts.push(readAt(fd, copied, size - copied))
    return { bytes: Buffer.concat(parts), ranges, marker }
  } finally {
    closeSync(fd)
  }
}

const STREAM = Buffer.from('stream', 'latin1')
const ENDSTREAM = Buffer.from('endstream', 'latin1')

/** Whether `stream` at k follows the `>>` of a dictionary (white space between), as a stream's keyword does. */
function afterDictionary(buf: Buffer, k: number): boolean {
  let j = k - 1
  while (j > 0 && (buf[j] === 0x20 || buf[j] === 0x0a || buf[j] === 0x0d || buf[j] === 0x09)) j--
  return buf[j] === 0x3e && buf[j - 1] === 0x3e
}

/** Whether the dictionary that ends at `dictEnd` (after its `obj`) is an image XObject's. */
function isImage(fd: number, dictEnd: number): boolean {
  const from = Math.max(0, dictEnd - DICT_LOOKBACK)
  const text = readAt(fd, from, dictEnd - from).toString('latin1')
  const obj = text.lastIndexOf('obj')
  return obj >= 0 && /\/Subtype\s*\/Image\b/.test(text.slice(obj))
}
