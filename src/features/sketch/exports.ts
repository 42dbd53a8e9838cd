import { foldVietnamese } from '#core/text/fold.ts'
import type { Outline } from './geometry.ts'

/** How the files name the coordinate system: "VN-2000 KTT 105°45′ múi 3°". */
export function crsLabel(meridian: number): string {
  const deg = Math.floor(meridian)
  const min = Math.round((meridian - deg) * 60)
  return `VN-2000 KTT ${deg}°${String(min).padStart(2, '0')}′ múi 3°`
}

const fixed = (v: number, digits: number) => v.toFixed(digits)

/**
 * The corner table as CSV: one row per corner with X (northing), Y (easting) and the length of the side
 * to the next corner, point as decimal separator (what survey software reads), UTF-8 with a BOM so a
 * spreadsheet shows the Vietnamese headers.
 */
export function cornersCsv(outline: Outline): string {
  const crs = crsLabel(outline.meridian)
  const rows = [`Điểm,X (m) ${crs},Y (m) ${crs},Cạnh tới điểm sau (m)`]
  outline.corners.forEach((c, i) =>
    rows.push([c.n, fixed(c.x, 3), fixed(c.y, 3), fixed(outline.edges[i]!.lengthM, 2)].join(',')),
  )
  return `\uFEFF${rows.join('\r\n')}\r\n`
}

/** DXF R12 keeps text in the drawing's code page: names go in without diacritics. */
const dxfText = (s: string) =>
  foldVietnamese(s)
    .replace(/[^\x20-\x7e]/g, '?')
    .toUpperCase()

type Pair = [code: number, value: string | number]

function layerTable(layers: { name: string; color: number }[]): Pair[] {
  return [
    [0, 'TABLE'],
    [2, 'LTYPE'],
    [70, 1],
    [0, 'LTYPE'],
    [2, 'CONTINUOUS'],
    [70, 0],
    [3, 'Solid line'],
    [72, 65],
    [73, 0],
    [40, '0.0'],
    [0, 'ENDTAB'],
    [0, 'TABLE'],
    [2, 'LAYER'],
    [70, layers.length],
    ...layers.flatMap((l): Pair[] => [
      [0, 'LAYER'],
      [2, l.name],
      [70, 0],
      [62, l.color],
      [6, 'CONTINUOUS'],
    ]),
    [0, 'ENDTAB'],
  ]
}

function text(layer: string, x: number, y: number, height: number, value: string): Pair[] {
  return [
    [0, 'TEXT'],
    [8, layer],
    [10, fixed(x, 3)],
    [20, fixed(y, 3)],
    [30, '0.0'],
    [40, fixed(height, 3)],
    [1, value],
  ]
}

/**
 * The outline as an ASCII DXF (AutoCAD R12, which every CAD program opens): a closed POLYLINE on layer
 * RANH_THUA, a POINT and the corner number at each corner, each side's length at its middle and the
 * title. Drawing units are metres in VN-2000 with CAD's axes: drawing X = easting (VN-2000 Y), drawing
 * Y = northing (VN-2000 X), so the drawing lands on the same coordinates as the certificate.
 */
export function outlineDxf(outline: Outline, title: string): string {
  const xs = outline.corners.map((c) => c.y)
  const ys = outline.corners.map((c) => c.x)
  const [minE, maxE, minN, maxN] = [Math.min(...xs), Math.max(...xs), Math.min(...ys), Math.max(...ys)]
  const h = Math.max(0.2, Math.max(maxE - minE, maxN - minN) / 40)
  const entities: Pair[] = [
    [0, 'POLYLINE'],
    [8, 'RANH_THUA'],
    [66, 1],
    [70, 1],
    [10, '0.0'],
    [20, '0.0'],
    [30, '0.0'],
    ...outline.corners.flatMap((c): Pair[] => [
      [0, 'VERTEX'],
      [8, 'RANH_THUA'],
      [10, fixed(c.y, 3)],
      [20, fixed(c.x, 3)],
      [30, '0.0'],
    ]),
    [0, 'SEQEND'],
    [8, 'RANH_THUA'],
    ...outline.corners.flatMap((c): Pair[] => [
      [0, 'POINT'],
      [8, 'DIEM'],
      [10, fixed(c.y, 3)],
      [20, fixed(c.x, 3)],
      [30, '0.0'],
      ...text('SO_HIEU_DIEM', c.y + h / 3, c.x + h / 3, h, String(c.n)),
    ]),
    ...outline.edges.flatMap((e, i) => {
      const a = outline.corners[i]!
      const b = outline.corners[(i + 1) % outline.corners.length]!
      return text('CANH', (a.y + b.y) / 2, (a.x + b.x) / 2, h * 0.8, fixed(e.lengthM, 2))
    }),
    ...text('GHI_CHU', minE, maxN + h * 2, h * 1.2, dxfText(title)),
    ...text(
      'GHI_CHU',
      minE,
      maxN + h * 0.6,
      h * 0.8,
      dxfText(`${crsLabel(outline.meridian)}, S = ${fixed(outline.areaM2, 1)} m2`),
    ),
  ]
  const pairs: Pair[] = [
    [0, 'SECTION'],
    [2, 'HEADER'],
    [9, '$ACADVER'],
    [1, 'AC1009'],
    [9, '$INSBASE'],
    [10, '0.0'],
    [20, '0.0'],
    [30, '0.0'],
    [9, '$EXTMIN'],
    [10, fixed(minE, 3)],
    [20, fixed(minN, 3)],
    [30, '0.0'],
    [9, '$EXTMAX'],
    [10, fixed(maxE, 3)],
    [20, fixed(maxN + h * 3, 3)],
    [30, '0.0'],
    [0, 'ENDSEC'],
    [0, 'SECTION'],
    [2, 'TABLES'],
    ...layerTable([
      { name: 'RANH_THUA', color: 1 },
      { name: 'DIEM', color: 7 },
      { name: 'SO_HIEU_DIEM', color: 5 },
      { name: 'CANH', color: 3 },
      { name: 'GHI_CHU', color: 7 },
    ]),
    [0, 'ENDSEC'],
    [0, 'SECTION'],
    [2, 'ENTITIES'],
    ...entities,
    [0, 'ENDSEC'],
    [0, 'EOF'],
  ]
  return pairs.map(([code, value]) => `${String(code).padStart(3, ' ')}\r\n${value}`).join('\r\n') + '\r\n'
}

/** A file name without diacritics or spaces: "so-do-to-12-thua-34.dxf". */
export function fileName(base: string, ext: string): string {
  const slug = foldVietnamese(base)
    .replace(/[^a-z0-9]+/g, '-')
    .replace(/^-|-$/g, '')
  return `${slug || 'so-do'}.${ext}`
}

/** Hands a text file to the browser as a download. */
export function download(name: string, body: string, type: string): void {
  const url = URL.createObjectURL(new Blob([body], { type }))
  const a = document.createElement('a')
  a.href = url
  a.download = name
  document.body.append(a)
  a.click()
  a.remove()
  setTimeout(() => URL.revokeObjectURL(url), 10_000)
}
