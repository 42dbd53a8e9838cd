import { createWriteStream, writeFileSync } from 'node:fs'
import { PassThrough, type Transform } from 'node:stream'
import { pipeline } from 'node:stream/promises'
import { constants, createInflate } from 'node:zlib'
import { PDFName, PDFRawStream, type PDFDict, type PDFObject } from 'pdf-lib'
import { PdfBroken, PdfUnsupported, type PdfDocument } from './pdf-document.ts'
import { decodeParmsOf, filtersOf, predictorOf, rowBytes, unpredictRow, type Predictor } from './pdf-filters.ts'

/** The colour spaces a scanned sheet comes in; anything else is named in the refusal. */
type ColourSpace = { kind: 'gray' | 'rgb' } | { kind: 'indexed'; base: 'gray' | 'rgb'; hival: number; palette: Buffer }

const FILTER_NAMES: Record<string, string> = {
  Fl: 'FlateDecode',
  DCT: 'DCTDecode',
  AHx: 'ASCIIHexDecode',
  A85: 'ASCII85Decode',
  LZW: 'LZWDecode',
  RL: 'RunLengthDecode',
  CCF: 'CCITTFaxDecode',
}

function deviceSpace(pdf: PdfDocument, v: PDFObject | undefined): 'gray' | 'rgb' {
  const array = pdf.array(v)
  const family = pdf.name(array ? array[0] : v)
  if (family === 'DeviceGray' || family === 'CalGray' || family === 'G') return 'gray'
  if (family === 'DeviceRGB' || family === 'CalRGB' || family === 'RGB') return 'rgb'
  if (family === 'ICCBased' && array) {
    // An ICC profile is read by its number of components; 1 and 3 are grey and RGB scans.
    const n = pdf.number(pdf.stream(array[1])?.dict.get(PDFName.of('N')))
    if (n === 1) return 'gray'
    if (n === 3) return 'rgb'
    throw new PdfUnsupported(`ảnh hệ màu ICC ${n ?? '?'} kênh (chỉ nhận xám hoặc RGB)`)
  }
  throw new PdfUnsupported(`ảnh hệ màu ${family ?? 'không rõ'} (chỉ nhận xám, RGB hoặc bảng màu)`)
}

function colourSpaceOf(pdf: PdfDocument, v: PDFObject | undefined): ColourSpace {
  const array = pdf.array(v)
  if (array && (pdf.name(array[0]) === 'Indexed' || pdf.name(array[0]) === 'I')) {
    const base = deviceSpace(pdf, array[1])
    const hival = pdf.number(array[2]) ?? 0
    const lookup = pdf.get(array[3])
    const palette = lookup instanceof PDFRawStream ? pdf.decoded(lookup) : (pdf.bytes(lookup) ?? Buffer.alloc(0))
    return { kind: 'indexed', base, hival, palette }
  }
  return { kind: deviceSpace(pdf, v) }
}

/** An image dictionary's entry, by its name or the abbreviation some writers use. */
const entry = (d: PDFDict, name: string, short: string) => d.get(PDFName.of(name)) ?? d.get(PDFName.of(short))

export type ExtractedImage = { path: string; width: number; height: number }

/**
 * Writes the sheet's image where GDAL can read it: JPEG data (DCTDecode) as the .jpg it already is,
 * and raw samples (FlateDecode or none) as a PPM/PGM written row by row while they are inflated, so
 * memory holds a row, not the image.
 */
export async function writeImage(
  pdf: PdfDocument,
  image: PDFRawStream,
  pathStem: string,
  ensureRoom: (bytes: number) => void,
): Promise<ExtractedImage> {
  const d = image.dict
  const width = pdf.number(entry(d, 'Width', 'W'))
  const height = pdf.number(entry(d, 'Height', 'H'))
  if (!width || !height || !Number.isInteger(width) || !Number.isInteger(height) || width < 0 || height < 0)
    throw new PdfBroken('ảnh trong PDF không ghi kích thước')
  const filters = filtersOf(pdf, d).map((f) => FILTER_NAMES[f] ?? f)
  if (filters.length === 1 && filters[0] === 'DCTDecode') {
    // JPEG data carries its own colour; the PDF's colour space only has to be one GDAL shows as is.
    deviceSpace(pdf, entry(d, 'ColorSpace', 'CS'))
    const path = `${pathStem}.jpg`
    ensureRoom(pdf.encodedLength(image))
    await pipeline(pdf.encoded(image), createWriteStream(path))
    return { path, width, height }
  }
  if (filters.length > 1 || (filters.length === 1 && filters[0] !== 'FlateDecode')) {
    throw new PdfUnsupported(`ảnh nén kiểu ${filters.join(' + ')} (chỉ đọc được JPEG/DCTDecode và Flate)`)
  }
  const cs = colourSpaceOf(pdf, entry(d, 'ColorSpace', 'CS'))
  const bpc = pdf.number(entry(d, 'BitsPerComponent', 'BPC')) ?? 8
  if (![1, 2, 4, 8, 16].includes(bpc)) throw new PdfUnsupported(`ảnh ${bpc} bit mỗi kênh`)
  const comps = cs.kind === 'rgb' ? 3 : 1
  const sampleRow: Predictor = { kind: 'none', columns: width, colors: comps, bpc }
  const predictor =
    filters.length === 0
      ? sampleRow
      : { ...predictorOf(pdf, decodeParmsOf(pdf, d, 0)), columns: width, colors: comps, bpc }
  const outComps = cs.kind === 'indexed' ? (cs.base === 'rgb' ? 3 : 1) : comps
  const path = `${pathStem}.${outComps === 3 ? 'ppm' : 'pgm'}`
  ensureRoom(width * height * outComps)
  writeFileSync(path, `P${outComps === 3 ? 6 : 5}\n${width} ${height}\n255\n`)
  const toPixels = sampleConverter(cs, bpc, width, pdf.numbers(entry(d, 'Decode', 'D')))
  const source: Transform =
    filters.length === 0 ? new PassThrough() : createInflate({ finishFlush: constants.Z_SYNC_FLUSH })
  let rows = 0
  const unpack = async function* (chunks: AsyncIterable<Buffer>) {
    const inRow = rowBytes(sampleRow)
    const stride = predictor.kind === 'png' ? inRow + 1 : inRow
    let pending: Buffer = Buffer.alloc(0)
    let prev = Buffer.alloc(inRow)
    for await (const chunk of chunks) {
      pending = pending.length ? Buffer.concat([pending, chunk]) : chunk
      let at = 0
      const out: Buffer[] = []
      for (; at + stride <= pending.length && rows < height; at += stride, rows++) {
        const row = Buffer.alloc(inRow)
        unpredictRow(predictor, pending.subarray(at, at + stride), prev, row)
        prev = row
        out.push(toPixels(row))
      }
      pending = rows < height ? pending.subarray(at) : Buffer.alloc(0)
      if (out.length) yield Buffer.concat(out)
    }
  }
  await pipeline(pdf.encoded(image), source, unpack, createWriteStream(path, { flags: 'a' })).catch((err: unknown) => {
    if (err instanceof PdfUnsupported) throw err
    throw new PdfBroken(`dữ liệu ảnh hỏng (${(err as Error).message})`)
  })
  if (rows < height) throw new PdfBroken(`ảnh thiếu dữ liệu: ${rows} trên ${height} dòng (tệp bị cắt cụt?)`)
  return { path, width, height }
}

/**
 * Turns one row of samples (1, 2, 4, 8 or 16 bits) into 8-bit grey or RGB pixels: /Decode maps each
 * sample linearly (an inverted [1 0] scan included), a palette index picks its colour.
 */
function sampleConverter(
  cs: ColourSpace,
  bpc: number,
  width: number,
  decode: number[] | undefined,
): (row: Buffer) => Buffer {
  const comps = cs.kind === 'rgb' ? 3 : 1
  const max = 2 ** bpc - 1
  const sample = (row: Buffer, i: number) => {
    if (bpc === 8) return row[i]!
    if (bpc === 16) return row[2 * i]! * 256 + row[2 * i + 1]!
    const bit = i * bpc
    return (row[bit >> 3]! >> (8 - bpc - (bit & 7))) & max
  }
  if (cs.kind === 'indexed') {
    const base = cs.base === 'rgb' ? 3 : 1
    const [dmin, dmax] = decode && decode.length >= 2 ? [decode[0]!, decode[1]!] : [0, max]
    return (row) => {
      const out = Buffer.alloc(width * base)
      for (let x = 0; x < width; x++) {
        const index = Math.min(cs.hival, Math.max(0, Math.round(dmin + (sample(row, x) * (dmax - dmin)) / max)))
        cs.palette.copy(out, x * base, index * base, index * base + base)
      }
      return out
    }
  }
  const ranges = Array.from(
    { length: comps },
    (_, c) =>
      (decode && decode.length >= 2 * comps ? [decode[2 * c]!, decode[2 * c + 1]!] : [0, 1]) as [number, number],
  )
  const plain = bpc === 8 && ranges.every(([a, b]) => a === 0 && b === 1)
  return (row) => {
    if (plain) return row.subarray(0, width * comps)
    const out = Buffer.alloc(width * comps)
    for (let i = 0; i < out.length; i++) {
      const [a, b] = ranges[i % comps]!
      out[i] = Math.max(0, Math.min(255, Math.round((a + (sample(row, i) / max) * (b - a)) * 255)))
    }
    return out
  }
}
