import { PDFBool, PDFName, type PDFDict, type PDFObject, type PDFRawStream } from 'pdf-lib'
import { PdfBroken, type PdfDocument } from './pdf-document.ts'

/** A PDF transformation matrix [a b c d e f]: x' = a·x + c·y + e, y' = b·x + d·y + f (ISO 32000-1 §8.3.3). */
export type Matrix = [number, number, number, number, number, number]

export const IDENTITY: Matrix = [1, 0, 0, 1, 0, 0]

/** m1 applied first, then m2 (PDF's `m1 × m2`). */
export function multiply(m1: Matrix, m2: Matrix): Matrix {
  const [a, b, c, d, e, f] = m1
  const [A, B, C, D, E, F] = m2
  return [a * A + b * C, a * B + b * D, c * A + d * C, c * B + d * D, e * A + f * C + E, e * B + f * D + F]
}

export function apply(m: Matrix, x: number, y: number): [number, number] {
  return [m[0] * x + m[2] * y + m[4], m[1] * x + m[3] * y + m[5]]
}

export function invert(m: Matrix): Matrix | null {
  const det = m[0] * m[3] - m[1] * m[2]
  if (!Number.isFinite(det) || Math.abs(det) < 1e-12) return null
  const [a, b, c, d, e, f] = m
  return [d / det, -b / det, -c / det, a / det, (c * f - d * e) / det, (b * e - a * f) / det]
}

export function matrixOf(pdf: PdfDocument, v: PDFObject | undefined): Matrix | null {
  const m = pdf.numbers(v)
  return m?.length === 6 && m.every((x) => Number.isFinite(x)) ? (m as Matrix) : null
}

/** An image XObject and where the content stream draws it: the CTM maps the image's unit square onto the page. */
export type PlacedImage = { image: PDFRawStream; ctm: Matrix }

/** Form XObjects nest; deeper than this is a damaged or hostile file. */
const MAX_FORM_DEPTH = 12

const key = (name: string) => PDFName.of(name)

/**
 * Every image XObject the first page draws, with its placement, found by following the graphics state
 * through `q`/`Q`/`cm` and into form XObjects (which carry their own /Matrix and resources). Paths,
 * text and inline images are passed over: a scanned sheet is its image.
 */
export function placedImages(pdf: PdfDocument): PlacedImage[] {
  const found: PlacedImage[] = []
  walk(pdf, contentOf(pdf, pdf.page.get(key('Contents'))), pdf.page.Resources(), IDENTITY, 0, found)
  return found
}

function contentOf(pdf: PdfDocument, contents: PDFObject | undefined): Buffer {
  const parts = pdf.array(contents) ?? [contents]
  // Content split over several streams is one stream for the reader; a space keeps tokens apart.
  return Buffer.concat(
    parts.flatMap((x) => {
      const s = pdf.stream(x)
      return s ? [pdf.decoded(s), Buffer.from(' ')] : []
    }),
  )
}

function walk(
  pdf: PdfDocument,
  content: Buffer,
  resources: PDFDict | undefined,
  start: Matrix,
  depth: number,
  found: PlacedImage[],
): void {
  const xobjects = pdf.dict(resources?.get(key('XObject')))
  const stack: Matrix[] = []
  let ctm = start
  for (const { op, operands } of operators(content)) {
    if (op === 'q') stack.push(ctm)
    else if (op === 'Q') ctm = stack.pop() ?? start
    else if (op === 'cm' && operands.length === 6 && operands.every((x) => typeof x === 'number'))
      ctm = multiply(operands as Matrix, ctm)
    else if (op === 'Do' && typeof operands[0] === 'object' && operands[0] !== null) {
      const x = pdf.stream(xobjects?.get(key(operands[0].name)))
      const subtype = pdf.name(x?.dict.get(key('Subtype')))
      if (x && subtype === 'Image' && !(pdf.get(x.dict.get(key('ImageMask'))) as PDFBool | undefined)?.asBoolean?.())
        found.push({ image: x, ctm })
      if (x && subtype === 'Form' && depth < MAX_FORM_DEPTH) {
        const matrix = matrixOf(pdf, x.dict.get(key('Matrix'))) ?? IDENTITY
        const own = pdf.dict(x.dict.get(key('Resources')))
        walk(pdf, pdf.decoded(x), own ?? resources, multiply(matrix, ctm), depth + 1, found)
      }
    }
  }
}

type Operand = number | { name: string } | null

const WHITE = new Set([0x00, 0x09, 0x0a, 0x0c, 0x0d, 0x20])
const DELIMITERS = new Set([0x28, 0x29, 0x3c, 0x3e, 0x5b, 0x5d, 0x7b, 0x7d, 0x2f, 0x25])
const NUMBER = /^[+-]?(\d+\.?\d*|\.\d+)$/

/**
 * A content stream's operators with their operands (ISO 32000-1 §7.8.2). Only numbers and names are
 * kept as operands, which is all `cm` and `Do` take; strings, arrays and dictionaries stand as null.
 * pdf-lib writes content streams but does not read them, hence this tokenizer.
 */
function* operators(b: Buffer): Generator<{ op: string; operands: Operand[] }> {
  let operands: Operand[] = []
  let i = 0
  const regular = () => {
    const from = i
    while (i < b.length && !WHITE.has(b[i]!) && !DELIMITERS.has(b[i]!)) i++
    return b.toString('latin1', from, i)
  }
  while (i < b.length) {
    const c = b[i]!
    if (WHITE.has(c)) i++
    else if (c === 0x25) while (i < b.length && b[i] !== 0x0a && b[i] !== 0x0d) i++
    else if (c === 0x28) {
      i = endOfLiteralString(b, i)
      operands.push(null)
    } else if (c === 0x3c || c === 0x3e) {
      // `<<` and `>>` open and close a dictionary; `<…>` is a string in hexadecimal.
      if (b[i + 1] === c) i += 2
      else if (c === 0x3c) i = b.indexOf(0x3e, i) + 1 || b.length
      else throw new PdfBroken(`nội dung trang hỏng ở byte ${i}`)
      operands.push(null)
    } else if (c === 0x5b || c === 0x5d || c === 0x7b || c === 0x7d) {
      i++
      operands.push(null)
    } else if (c === 0x2f) {
      i++
      operands.push({
        name: regular().replace(/#([0-9a-fA-F]{2})/g, (_, h: string) => String.fromCharCode(parseInt(h, 16))),
      })
    } else if (c === 0x29) throw new PdfBroken(`nội dung trang hỏng ở byte ${i}`)
    else {
      const word = regular()
      if (NUMBER.test(word)) operands.push(Number(word))
      else if (word === 'true' || word === 'false' || word === 'null') operands.push(null)
      else {
        if (word === 'BI') i = endOfInlineImage(b, i)
        yield { op: word, operands }
        operands = []
      }
    }
  }
}

/** The byte after a literal string `( … )` that starts at `i`: parentheses nest, a backslash escapes. */
function endOfLiteralString(b: Buffer, i: number): number {
  let depth = 0
  for (; i < b.length; i++) {
    if (b[i] === 0x5c) i++
    else if (b[i] === 0x28) depth++
    else if (b[i] === 0x29 && --depth === 0) return i + 1
  }
  throw new PdfBroken('nội dung trang hỏng: chuỗi không đóng')
}

/** `BI <dict> ID <data> EI`: the data is binary, so the reader jumps past the `EI` that ends it. */
function endOfInlineImage(b: Buffer, i: number): number {
  const id = b.indexOf('ID', i, 'latin1')
  if (id < 0) throw new PdfBroken('ảnh nội tuyến không có ID')
  const white = (c: number | undefined) => c === undefined || c === 0x20 || c === 0x0a || c === 0x0d || c === 0x09
  for (let k = id + 3; k + 1 < b.length; k++)
    if (b[k] === 0x45 && b[k + 1] === 0x49 && white(b[k - 1]) && white(b[k + 2])) return k + 2
  return b.length
}

/** The rectangle [x0 y0 x1 y1] of a /BBox, /MediaBox …, or null. */
export function rectOf(pdf: PdfDocument, v: PDFObject | undefined): [number, number, number, number] | null {
  const r = pdf.numbers(v)
  return r?.length === 4 && r.every((x) => Number.isFinite(x)) ? (r as [number, number, number, number]) : null
}
