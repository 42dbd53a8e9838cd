import { PdfBroken, PdfStream, type PdfFile } from './pdf-file.ts'
import { isKeyword, nameOf, numberOf, PdfLexer, PdfName, PdfParser, type PdfDict, type PdfValue } from './pdf-syntax.ts'

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

export function matrixOf(v: PdfValue | undefined): Matrix | null {
  if (!Array.isArray(v) || v.length !== 6) return null
  const m = v.map((x) => numberOf(x))
  return m.every((x) => x !== undefined && Number.isFinite(x)) ? (m as Matrix) : null
}

export type Page = { dict: PdfDict; resources: PdfDict | undefined }

/** Attributes a page inherits from its ancestors in the page tree when it does not set them (§7.7.3.4). */
const INHERITED = ['Resources', 'MediaBox', 'CropBox', 'Rotate']

/** The first page: the page tree is walked down the first kids, carrying the inheritable attributes. */
export function firstPage(pdf: PdfFile): Page {
  const catalog = pdf.dict(pdf.trailer.get('Root'))
  let node = pdf.dict(catalog?.get('Pages'))
  const inherited = new Map<string, PdfValue>()
  for (let depth = 0; node && depth < 64; depth++) {
    for (const k of INHERITED) if (node.has(k)) inherited.set(k, node.get(k)!)
    const kids = pdf.get(node.get('Kids'))
    if (nameOf(node.get('Type')) === 'Page' || !Array.isArray(kids)) {
      const dict = new Map([...inherited, ...node])
      return { dict, resources: pdf.dict(dict.get('Resources')) }
    }
    node = pdf.dict(kids[0])
  }
  throw new PdfBroken('không tìm thấy trang nào')
}

/** An image XObject and where the content stream draws it: the CTM maps the image's unit square onto the page. */
export type PlacedImage = { image: PdfStream; ctm: Matrix }

/** Form XObjects nest; deeper than this is a damaged or hostile file. */
const MAX_FORM_DEPTH = 12

/**
 * Every image XObject the page draws, with its placement, found by following the graphics state
 * through `q`/`Q`/`cm` and into form XObjects (which carry their own /Matrix and resources). Paths,
 * text and inline images are passed over: a scanned sheet is its image.
 */
export function placedImages(pdf: PdfFile, page: Page): PlacedImage[] {
  const found: PlacedImage[] = []
  walk(pdf, contentOf(pdf, page.dict.get('Contents')), page.resources, IDENTITY, 0, found)
  return found
}

function contentOf(pdf: PdfFile, contents: PdfValue | undefined): Buffer {
  const v = pdf.get(contents)
  const parts = Array.isArray(v) ? v.map((x) => pdf.stream(x)) : [v instanceof PdfStream ? v : undefined]
  // Content split over several streams is one stream for the reader; a space keeps tokens apart.
  return Buffer.concat(parts.flatMap((s) => (s ? [pdf.decoded(s), Buffer.from(' ')] : [])))
}

function walk(
  pdf: PdfFile,
  content: Buffer,
  resources: PdfDict | undefined,
  start: Matrix,
  depth: number,
  found: PlacedImage[],
): void {
  const xobjects = pdf.dict(resources?.get('XObject'))
  const parser = new PdfParser(new PdfLexer(content, 0, true))
  const stack: Matrix[] = []
  let ctm = start
  let operands: PdfValue[] = []
  for (;;) {
    parser.lex.skipWhite()
    if (parser.lex.pos >= content.length) return
    const v = parser.valueOrKeyword()
    if (!isKeyword(v)) {
      operands.push(v)
      continue
    }
    const op = v.keyword
    if (op === 'q') stack.push(ctm)
    else if (op === 'Q') ctm = stack.pop() ?? start
    else if (op === 'cm') ctm = multiply(matrixOf(operands) ?? IDENTITY, ctm)
    else if (op === 'BI') skipInlineImage(parser.lex)
    else if (op === 'Do' && operands[0] instanceof PdfName) {
      const x = pdf.stream(xobjects?.get(operands[0].name))
      const subtype = nameOf(x?.dict.get('Subtype'))
      if (x && subtype === 'Image' && x.dict.get('ImageMask') !== true) found.push({ image: x, ctm })
      if (x && subtype === 'Form' && depth < MAX_FORM_DEPTH) {
        const matrix = matrixOf(pdf.get(x.dict.get('Matrix')) as PdfValue) ?? IDENTITY
        walk(
          pdf,
          pdf.decoded(x),
          pdf.dict(x.dict.get('Resources')) ?? resources,
          multiply(matrix, ctm),
          depth + 1,
          found,
        )
      }
    }
    operands = []
  }
}

/** `BI <dict> ID <data> EI`: the data is binary, so the lexer jumps to the `EI` that ends it. */
function skipInlineImage(lex: PdfLexer): void {
  const b = lex.buf
  const id = b.indexOf('ID', lex.pos, 'latin1')
  if (id < 0) throw new PdfBroken('ảnh nội tuyến không có ID')
  for (let i = id + 3; i + 1 < b.length; i++) {
    const white = (c: number | undefined) => c === undefined || c === 0x20 || c === 0x0a || c === 0x0d || c === 0x09
    if (b[i] === 0x45 && b[i + 1] === 0x49 && white(b[i - 1]) && white(b[i + 2])) {
      lex.pos = i + 2
      return
    }
  }
  lex.pos = b.length
}

/** The rectangle [x0 y0 x1 y1] of a /BBox, /MediaBox …, or null. */
export function rectOf(v: PdfValue | undefined): [number, number, number, number] | null {
  if (!Array.isArray(v) || v.length !== 4) return null
  const r = v.map((x) => numberOf(x))
  return r.every((x) => x !== undefined && Number.isFinite(x)) ? (r as [number, number, number, number]) : null
}
