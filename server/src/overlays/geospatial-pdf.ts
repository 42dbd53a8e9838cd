import { closeSync, openSync, readSync } from 'node:fs'
import { basename } from 'node:path'
import { ImportError } from '../import/errors.ts'
import { PdfBroken, PdfDocument, PdfUnsupported } from './pdf/pdf-document.ts'
import { pdfGeoref, type PdfGeoref } from './pdf/pdf-georef.ts'
import { writeImage } from './pdf/pdf-image.ts'
import { placedImages } from './pdf/pdf-page.ts'

/** A PDF starts with `%PDF-` (readers accept it anywhere in the first kilobyte, after junk some tools prepend). */
export function isPdf(file: string): boolean {
  const fd = openSync(file, 'r')
  try {
    const head = Buffer.alloc(1024)
    const n = readSync(fd, head, 0, head.length, 0)
    return head.subarray(0, n).includes('%PDF-', 0, 'latin1')
  } finally {
    closeSync(fd)
  }
}

/** An image covering at least this share of the largest one's page area is a part of the map, not a legend. */
const MAP_PART = 0.1

export type PdfSheet = {
  /** The sheet's image, written where GDAL reads it (a JPEG, or a PPM/PGM of the decoded samples). */
  image: string
  /** Where the image lies, or null when the PDF has no georeferencing. */
  georef: PdfGeoref | null
  /** For the person importing: what was read, and what was passed over. */
  notes: string[]
}

/**
 * Reads a geospatial PDF as a scanned sheet is published: the first page, the largest raster image
 * it draws, and that image's georeferencing (ISO 32000 viewports or the OGC best practice). The image
 * is written to `scratchStem` + extension, without going through memory whole, once `ensureRoom`
 * has accepted its size on disk. GDAL in WebAssembly
 * has no PDF reader (its PDF driver only writes), hence this one.
 */
export async function readGeospatialPdf(
  file: string,
  scratchStem: string,
  ensureRoom: (bytes: number) => void,
): Promise<PdfSheet> {
  try {
    const pdf = await PdfDocument.open(file)
    const images = placedImages(pdf)
    const area = (m: number[]) => Math.abs(m[0]! * m[3]! - m[1]! * m[2]!)
    const largest = images.reduce<(typeof images)[number] | undefined>(
      (best, p) => (!best || area(p.ctm) > area(best.ctm) ? p : best),
      undefined,
    )
    if (!largest) {
      throw new ImportError(
        `${basename(file)} không có ảnh quét (bản vẽ vector): chỉ nhập được PDF chứa ảnh; hãy xuất tờ bản đồ thành GeoTIFF (QGIS, ArcGIS hoặc gdal_translate) rồi nhập tệp đó`,
      )
    }
    // A scan the writer cut into tiles is several images of the map's size; a legend or a logo is small.
    const parts = new Set(images.filter((p) => area(p.ctm) >= MAP_PART * area(largest.ctm)).map((p) => p.image))
    if (parts.size > 1) {
      throw new ImportError(
        `${basename(file)} vẽ tờ bản đồ thành ${parts.size} ảnh ghép lại (ảnh chia ô), chưa ghép được: hãy xuất tờ bản đồ thành GeoTIFF rồi nhập tệp đó`,
      )
    }
    const notes: string[] = []
    const others = new Set(images.map((p) => p.image)).size - 1
    if (others > 0) notes.push(`PDF vẽ thêm ${others} ảnh nhỏ (chú giải, khung tên …), không nhập`)
    const written = await writeImage(pdf, largest.image, scratchStem, ensureRoom)
    const georef = pdfGeoref(pdf, largest)
    notes.push(
      `Ảnh trong PDF: ${written.width} × ${written.height} px${georef ? `, tọa độ theo ${georef.encoding}` : ', không có tọa độ'}`,
    )
    return { image: written.path, georef, notes }
  } catch (err) {
    if (err instanceof PdfUnsupported)
      throw new ImportError(
        `${basename(file)} có ${err.message}, chưa đọc được: hãy xuất tờ bản đồ thành GeoTIFF rồi nhập tệp đó`,
      )
    if (err instanceof PdfBroken)
      throw new ImportError(`Tệp PDF hỏng, không đọc được ${basename(file)}: ${err.message}`)
    throw err
  }
}
