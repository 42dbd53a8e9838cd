import { PDFName, type PDFDict } from 'pdf-lib'
import type { PdfDocument } from './pdf-document.ts'
import { apply, invert, matrixOf, multiply, rectOf, type Matrix, type PlacedImage } from './pdf-page.ts'

/**
 * Where the PDF says its image lies on the ground: control points in the image's own square (u to the
 * right, v down, both 0–1 from the top-left corner) with their coordinates. ISO 32000 gives latitude
 * and longitude on the datum of its CRS (`geographic`); the OGC best practice gives map coordinates in
 * its CRS (`map`).
 */
export type PdfGeoref = {
  encoding: 'ISO 32000' | 'OGC'
  coordinates: 'geographic' | 'map'
  /** geographic: x = longitude, y = latitude; map: x = easting (or longitude), y = northing (or latitude). */
  points: { u: number; v: number; x: number; y: number }[]
  wkt: string
  epsg: number | undefined
}

/** A page point in the image's square, v counted down from the top (the first row of samples is the top, §8.9.5). */
function toImageSquare(inverse: Matrix, px: number, py: number): { u: number; v: number } {
  const [u, up] = apply(inverse, px, py)
  return { u, v: 1 - up }
}

const key = (name: string) => PDFName.of(name)

/** The page rectangle the image covers (its square through the CTM). */
function imageRect(ctm: Matrix): [number, number, number, number] {
  const corners = [apply(ctm, 0, 0), apply(ctm, 1, 0), apply(ctm, 0, 1), apply(ctm, 1, 1)]
  const xs = corners.map((c) => c[0])
  const ys = corners.map((c) => c[1])
  return [Math.min(...xs), Math.min(...ys), Math.max(...xs), Math.max(...ys)]
}

function overlap(a: [number, number, number, number], b: [number, number, number, number]): number {
  const w = Math.min(a[2], b[2]) - Math.max(a[0], b[0])
  const h = Math.min(a[3], b[3]) - Math.max(a[1], b[1])
  return w > 0 && h > 0 ? w * h : 0
}

/**
 * ISO 32000 (PDF 2.0, and Adobe's extension to 1.7 that GDAL, ArcGIS and QGIS write): the page's /VP
 * array of viewports, each a /BBox on the page with a /Measure << /Subtype /GEO /GPTS [lat lon …]
 * /LPTS [x y …] /GCS … >>, LPTS being points of the BBox's unit square. The viewport that covers the
 * most of the image is the map frame (a sheet may also carry small inset maps).
 */
function iso32000(pdf: PdfDocument, placed: PlacedImage, inverse: Matrix): PdfGeoref | null {
  const vps = pdf.array(pdf.page.get(key('VP')))
  if (!vps) return null
  const rect = imageRect(placed.ctm)
  let best: { bbox: [number, number, number, number]; measure: PDFDict; area: number } | undefined
  for (const item of vps) {
    const vp = pdf.dict(item)
    const bbox = rectOf(pdf, vp?.get(key('BBox')))
    const measure = pdf.dict(vp?.get(key('Measure')))
    if (!bbox || !measure || pdf.name(measure.get(key('Subtype'))) !== 'GEO') continue
    const area = overlap(rect, [
      Math.min(bbox[0], bbox[2]),
      Math.min(bbox[1], bbox[3]),
      Math.max(bbox[0], bbox[2]),
      Math.max(bbox[1], bbox[3]),
    ])
    if (!best || area > best.area) best = { bbox, measure, area }
  }
  if (!best) return null
  const gpts = pdf.numbers(best.measure.get(key('GPTS')))
  const lpts = pdf.numbers(best.measure.get(key('LPTS')))
  const gcs = pdf.dict(best.measure.get(key('GCS')))
  const wkt = pdf.text(gcs?.get(key('WKT')))
  if (!gpts || !lpts || gpts.length !== lpts.length || gpts.length < 6 || gpts.length % 2 || wkt === undefined)
    return null
  const [x0, y0, x1, y1] = best.bbox
  const points = []
  for (let i = 0; i < lpts.length; i += 2) {
    const { u, v } = toImageSquare(inverse, x0 + lpts[i]! * (x1 - x0), y0 + lpts[i + 1]! * (y1 - y0))
    points.push({ u, v, x: gpts[i + 1]!, y: gpts[i]! })
  }
  return {
    encoding: 'ISO 32000',
    coordinates: 'geographic',
    points,
    wkt,
    epsg: pdf.number(gcs?.get(key('EPSG'))),
  }
}

/**
 * The OGC best practice (TerraGo's encoding, GDAL's OGC_BP): the page's /LGIDict (one, or an array of
 * map frames) maps page points to map coordinates by a /CTM or by /Registration pairs [x y X Y], in
 * the CRS of its /Projection. Only a projection that carries its WKT (as GDAL writes it) is read.
 */
function ogc(pdf: PdfDocument, placed: PlacedImage, inverse: Matrix): PdfGeoref | null {
  const lgi = pdf.page.get(key('LGIDict'))
  const dicts = (pdf.array(lgi) ?? [lgi]).map((d) => pdf.dict(d)).filter((d): d is PDFDict => d !== undefined)
  for (const d of dicts) {
    const wkt = pdf.text(pdf.dict(d.get(key('Projection')))?.get(key('WKT')))
    if (wkt === undefined) continue
    const ctm = matrixOf(pdf, d.get(key('CTM')))
    const points: PdfGeoref['points'] = []
    if (ctm) {
      // The image's four corners, through the page to the map.
      const toMap = multiply(placed.ctm, ctm)
      for (const [iu, iv] of [
        [0, 1],
        [1, 1],
        [0, 0],
        [1, 0],
      ] as const) {
        const [x, y] = apply(toMap, iu, iv)
        points.push({ u: iu, v: 1 - iv, x, y })
      }
    } else {
      for (const pair of pdf.array(d.get(key('Registration'))) ?? []) {
        const r = pdf.numbers(pair)
        if (r?.length === 4) points.push({ ...toImageSquare(inverse, r[0]!, r[1]!), x: r[2]!, y: r[3]! })
      }
    }
    if (points.length >= 3) return { encoding: 'OGC', coordinates: 'map', points, wkt, epsg: undefined }
  }
  return null
}

/** The georeferencing of the first page for the image drawn there: ISO 32000 when the PDF has it, else the OGC best practice. */
export function pdfGeoref(pdf: PdfDocument, placed: PlacedImage): PdfGeoref | null {
  const inverse = invert(placed.ctm)
  if (!inverse) return null
  return iso32000(pdf, placed, inverse) ?? ogc(pdf, placed, inverse)
}
