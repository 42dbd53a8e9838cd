import { PDFName, type PDFDict } from 'pdf-lib'
import { PdfUnsupported, type PdfDocument } from './pdf-document.ts'

/** The stream's filters as names, first applied first (ISO 32000-1 §7.4). */
export function filtersOf(pdf: PdfDocument, dict: PDFDict): string[] {
  const f = dict.get(PDFName.of('Filter'))
  const list = pdf.array(f) ?? (f === undefined ? [] : [f])
  return list.map((v) => pdf.name(v) ?? '?')
}

/** The decode parameters of the filter at `index` (one dictionary, or an array parallel to /Filter). */
export function decodeParmsOf(pdf: PdfDocument, dict: PDFDict, index: number): PDFDict | undefined {
  const p = dict.get(PDFName.of('DecodeParms')) ?? dict.get(PDFName.of('DP'))
  return pdf.dict(pdf.array(p)?.[index] ?? p)
}

export type Predictor = { kind: 'none' | 'png' | 'tiff'; columns: number; colors: number; bpc: number }

export function predictorOf(pdf: PdfDocument, parms: PDFDict | undefined): Predictor {
  const entry = (key: string) => pdf.number(parms?.get(PDFName.of(key)))
  const p = entry('Predictor') ?? 1
  return {
    kind: p >= 10 ? 'png' : p === 2 ? 'tiff' : 'none',
    columns: entry('Columns') ?? 1,
    colors: entry('Colors') ?? 1,
    bpc: entry('BitsPerComponent') ?? 8,
  }
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
