import { constants, inflateSync } from 'node:zlib'
import { isDict, nameOf, numberOf, type PdfDict, type PdfValue } from './pdf-syntax.ts'

/** A stream encoded in a way this reader does not decode; the message names the filter. */
export class PdfUnsupported extends Error {}

/** The stream's filters as names, first applied first (ISO 32000-1 §7.4). */
export function filtersOf(dict: PdfDict): string[] {
  const f = dict.get('Filter')
  if (f === undefined || f === null) return []
  const list = Array.isArray(f) ? f : [f]
  return list.map((v) => nameOf(v) ?? '?')
}

/** The decode parameters of the filter at `index` (one dictionary, or an array parallel to /Filter). */
export function decodeParmsOf(dict: PdfDict, index: number): PdfDict | undefined {
  const p: PdfValue | undefined = dict.get('DecodeParms') ?? dict.get('DP')
  const one = Array.isArray(p) ? p[index] : p
  return isDict(one) ? one : undefined
}

export type Predictor = { kind: 'none' | 'png' | 'tiff'; columns: number; colors: number; bpc: number }

export function predictorOf(parms: PdfDict | undefined): Predictor {
  const p = numberOf(parms?.get('Predictor')) ?? 1
  const columns = numberOf(parms?.get('Columns')) ?? 1
  const colors = numberOf(parms?.get('Colors')) ?? 1
  const bpc = numberOf(parms?.get('BitsPerComponent')) ?? 8
  return { kind: p >= 10 ? 'png' : p === 2 ? 'tiff' : 'none', columns, colors, bpc }
}

/** Bytes in one row of samples, without the PNG predictor's filter-type byte. */
export const rowBytes = (p: Predictor) => Math.ceil((p.columns * p.colors * p.bpc) / 8)

/**
 * Undoes a predictor one row at a time: PNG predictors (each row starts with its filter type, so the
 * types may differ row to row) and TIFF predictor 2 for 8-bit samples. `prev` is the previous decoded
 * row (zeros before the first); the decoded row is written into `out`.
 */
export function unpredictRow(p: Predictor, row: Buffer, prev: Buffer, out: Buffer): void {
  const bpp = Math.max(1, Math.ceil((p.colors * p.bpc) / 8))
  if (p.kind === 'none') {
    row.copy(out)
    return
  }
  if (p.kind === 'tiff') {
    if (p.bpc !== 8) throw new PdfUnsupported(`bộ dự đoán TIFF với ${p.bpc} bit`)
    for (let i = 0; i < out.length; i++) out[i] = (row[i]! + (i >= bpp ? out[i - bpp]! : 0)) & 0xff
    return
  }
  const type = row[0]!
  for (let i = 0; i < out.length; i++) {
    const x = row[i + 1]!
    const a = i >= bpp ? out[i - bpp]! : 0
    const b = prev[i]!
    const c = i >= bpp ? prev[i - bpp]! : 0
    let v: number
    if (type === 0) v = x
    else if (type === 1) v = x + a
    else if (type === 2) v = x + b
    else if (type === 3) v = x + ((a + b) >> 1)
    else if (type === 4) {
      const pa = Math.abs(b - c)
      const pb = Math.abs(a - c)
      const pc = Math.abs(a + b - 2 * c)
      v = x + (pa <= pb && pa <= pc ? a : pb <= pc ? b : c)
    } else throw new PdfUnsupported(`kiểu lọc PNG ${type}`)
    out[i] = v & 0xff
  }
}

/**
 * Inflates a whole (small) stream. A sync flush lets a stream that lacks its final checksum, which
 * some writers leave out, decode to what it holds.
 */
export function inflate(bytes: Buffer): Buffer {
  return inflateSync(bytes, { finishFlush: constants.Z_SYNC_FLUSH })
}

/** Decodes a small stream (content, object stream, cross-reference stream): no filter or FlateDecode. */
export function decodeSmall(bytes: Buffer, dict: PdfDict): Buffer {
  const filters = filtersOf(dict)
  if (filters.length === 0) return bytes
  if (filters.length !== 1 || (filters[0] !== 'FlateDecode' && filters[0] !== 'Fl'))
    throw new PdfUnsupported(`bộ lọc ${filters.join('+')}`)
  const data = inflate(bytes)
  const p = predictorOf(decodeParmsOf(dict, 0))
  if (p.kind === 'none') return data
  const width = rowBytes(p)
  const stride = p.kind === 'png' ? width + 1 : width
  const rows = Math.floor(data.length / stride)
  const out = Buffer.alloc(rows * width)
  let prev = Buffer.alloc(width)
  for (let r = 0; r < rows; r++) {
    const row = out.subarray(r * width, (r + 1) * width)
    unpredictRow(p, data.subarray(r * stride, (r + 1) * stride), prev, row)
    prev = row
  }
  return out
}
