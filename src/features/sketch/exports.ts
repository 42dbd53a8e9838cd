import { dxfLayerTable, dxfText, dxfWords, type DxfPair } from '../../lib/dxf.ts'
import type { Outline } from './geometry.ts'
import { sideDirection, type NearStreet, type Neighbour } from './neighbours.ts'

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

type Pt = { x: number; y: number }

/** The line-type table (the solid line the layers name), then the layers. */
function layerTable(layers: { name: string; color: number }[]): DxfPair[] {
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
    ...dxfLayerTable(layers),
  ]
}

/** A number as TEXT (corner numbers, side lengths: ASCII only). Drawing X = easting, Y = northing. */
function text(layer: string, x: number, y: number, height: number, value: string): DxfPair[] {
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

function line(layer: string, a: Pt, b: Pt): DxfPair[] {
  return [
    [0, 'LINE'],
    [8, layer],
    [10, fixed(a.y, 3)],
    [20, fixed(a.x, 3)],
    [30, '0.0'],
    [11, fixed(b.y, 3)],
    [21, fixed(b.x, 3)],
    [31, '0.0'],
  ]
}

/** What the drawing says around the outline: its title, address, neighbours and street. */
export type DxfContext = {
  title: string
  address?: string
  neighbours?: readonly Neighbour[] | null
  street?: NearStreet | null
}

const neighbourName = (n: Neighbour) =>
  n.parcelNo === null ? 'Thửa kề' : `Thửa ${n.parcelNo}${n.sheetNo === null ? '' : `, tờ ${n.sheetNo}`}`

/** The nearest point of a segment to a point (VN-2000 x = northing, y = easting). */
function nearestOn(p: Pt, [a, b]: [Pt, Pt]): Pt {
  const dx = b.x - a.x
  const dy = b.y - a.y
  const len2 = dx * dx + dy * dy
  const t = len2 === 0 ? 0 : Math.max(0, Math.min(1, ((p.x - a.x) * dx + (p.y - a.y) * dy) / len2))
  return { x: a.x + t * dx, y: a.y + t * dy }
}

/**
 * The outline as an ASCII DXF in AutoCAD R12's structure (which every CAD program opens): a closed
 * POLYLINE on layer RANH_THUA, a POINT and the corner number at each corner, each side's length at its
 * middle; the title and the coordinate system (GHI_CHU), the address (DIA_CHI), each neighbour's number
 * on its side (THUA_KE) and the nearest street's centre line with its name (DUONG), all words in
 * Vietnamese through `\U+` escapes (dxfUnicode in src/lib/dxf.ts). Drawing units are metres in VN-2000 with CAD's axes:
 * drawing X = easting (VN-2000 Y), drawing Y = northing (VN-2000 X), so the drawing lands on the same
 * coordinates as the certificate.
 */
export function outlineDxf(outline: Outline, ctx: DxfContext): string {
  const xs = outline.corners.map((c) => c.y)
  const ys = outline.corners.map((c) => c.x)
  const [minE, maxE, minN, maxN] = [Math.min(...xs), Math.max(...xs), Math.min(...ys), Math.max(...ys)]
  const extent = Math.max(maxE - minE, maxN - minN)
  const h = Math.max(0.2, extent / 40)
  const mid = {
    x: ys.reduce((a, b) => a + b, 0) / ys.length,
    y: xs.reduce((a, b) => a + b, 0) / xs.length,
  }
  const reach = extent / 2 + h * 3
  const neighbours = (ctx.neighbours ?? []).flatMap((n) => {
    const d = sideDirection(n.side)
    return dxfWords('THUA_KE', mid.y + d.dy * reach, mid.x + d.dx * reach, h, neighbourName(n))
  })
  const street = ctx.street
    ? (() => {
        const at = nearestOn(mid, ctx.street.segment)
        return [...line('DUONG', ...ctx.street.segment), ...dxfWords('DUONG', at.y, at.x, h * 1.2, ctx.street.name)]
      })()
    : []
  const entities: DxfPair[] = [
    [0, 'POLYLINE'],
    [8, 'RANH_THUA'],
    [66, 1],
    [70, 1],
    [10, '0.0'],
    [20, '0.0'],
    [30, '0.0'],
    ...outline.corners.flatMap((c): DxfPair[] => [
      [0, 'VERTEX'],
      [8, 'RANH_THUA'],
      [10, fixed(c.y, 3)],
      [20, fixed(c.x, 3)],
      [30, '0.0'],
    ]),
    [0, 'SEQEND'],
    [8, 'RANH_THUA'],
    ...outline.corners.flatMap((c): DxfPair[] => [
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
    ...neighbours,
    ...street,
    ...dxfWords('GHI_CHU', (minE + maxE) / 2, maxN + reach + h * 2.4, h * 1.2, ctx.title),
    ...(ctx.address ? dxfWords('DIA_CHI', (minE + maxE) / 2, maxN + reach + h * 1.2, h * 0.9, ctx.address) : []),
    ...dxfWords(
      'GHI_CHU',
      (minE + maxE) / 2,
      minN - reach - h * 1.5,
      h * 0.8,
      `${crsLabel(outline.meridian)}, S = ${fixed(outline.areaM2, 1)} m²`,
    ),
  ]
  const pairs: DxfPair[] = [
    [0, 'SECTION'],
    [2, 'HEADER'],
    [9, '$ACADVER'],
    [1, 'AC1009'],
    [9, '$DWGCODEPAGE'],
    [3, 'ANSI_1252'],
    [9, '$INSBASE'],
    [10, '0.0'],
    [20, '0.0'],
    [30, '0.0'],
    [9, '$EXTMIN'],
    [10, fixed(minE - reach, 3)],
    [20, fixed(minN - reach - h * 3, 3)],
    [30, '0.0'],
    [9, '$EXTMAX'],
    [10, fixed(maxE + reach, 3)],
    [20, fixed(maxN + reach + h * 3, 3)],
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
      { name: 'DIA_CHI', color: 7 },
      { name: 'THUA_KE', color: 8 },
      { name: 'DUONG', color: 4 },
    ]),
    [0, 'ENDSEC'],
    [0, 'SECTION'],
    [2, 'ENTITIES'],
    ...entities,
    [0, 'ENDSEC'],
    [0, 'EOF'],
  ]
  return dxfText(pairs)
}
