import { createReadStream } from 'node:fs'
import { basename, extname } from 'node:path'
import { Unzip, UnzipInflate, UnzipPassThrough } from 'fflate'
import { ImportError } from '../errors.ts'

/** The start of one part of a shapefile (.shp, .shx or .dbf) and its whole size in bytes. */
export type ShapefilePart = { name: string; head: Buffer; size: number }

const HEAD_BYTES = 100

/**
 * The size each part's header promises: a .shp or .shx states its length (in 16-bit words at byte 24),
 * a .dbf its record count, header and record lengths. Null when the header itself is cut short.
 */
function promisedSize(part: ShapefilePart): number | null {
  const ext = extname(part.name).toLowerCase()
  if (ext === '.dbf') {
    if (part.head.length < 12) return null
    return part.head.readUInt16LE(8) + part.head.readUInt32LE(4) * part.head.readUInt16LE(10)
  }
  if (part.head.length < 28) return null
  return part.head.readInt32BE(24) * 2
}

/**
 * Refuses a shapefile whose parts are shorter than their headers say: a file cut off in a copy or a
 * download would otherwise import the records before the cut (or the shapes without attributes) and
 * refuse the rest row by row. The import must be all or nothing, so it stops with one line.
 */
export function checkShapefileParts(parts: ShapefilePart[], file: string): void {
  for (const part of parts) {
    const promised = promisedSize(part)
    if (promised === null || part.size < promised) {
      throw new ImportError(
        `${basename(file)}: tệp ${basename(part.name)} bị cắt (có ${part.size} byte, phần đầu tệp ghi ${promised ?? 'không đọc được'} byte); không nhập gì — hãy chép hoặc tải lại tệp đầy đủ`,
      )
    }
  }
}

const isPart = (name: string) => /\.(shp|shx|dbf)$/i.test(name)

/**
 * The shapefile parts inside a .zip, streamed through once: each part's header and its size as
 * decompressed, which a cut-off archive or a cut part inside it cannot fake. A part whose data ends
 * before the archive does is reported with the bytes it had.
 */
export async function shapefilePartsInZip(file: string): Promise<ShapefilePart[]> {
  const parts: (ShapefilePart & { complete: boolean })[] = []
  let failure: Error | null = null
  const unzip = new Unzip((entry) => {
    if (!isPart(entry.name)) return
    const part = { name: entry.name, head: Buffer.alloc(0), size: 0, complete: false }
    parts.push(part)
    entry.ondata = (err, data, final) => {
      if (err) {
        failure ??= err
        return
      }
      if (part.head.length < HEAD_BYTES) part.head = Buffer.concat([part.head, data]).subarray(0, HEAD_BYTES)
      part.size += data.length
      if (final) part.complete = true
    }
    entry.start()
  })
  unzip.register(UnzipInflate)
  unzip.register(UnzipPassThrough)
  for await (const chunk of createReadStream(file) as AsyncIterable<Buffer>) unzip.push(chunk)
  unzip.push(new Uint8Array(0), true)
  if (failure) throw new ImportError(`${basename(file)} hỏng, không giải nén được: ${(failure as Error).message}`)
  const cut = parts.find((p) => !p.complete)
  if (cut) {
    throw new ImportError(
      `${basename(file)} bị cắt: tệp ${basename(cut.name)} trong đó chỉ còn ${cut.size} byte; không nhập gì — hãy chép hoặc tải lại tệp đầy đủ`,
    )
  }
  return parts
}
