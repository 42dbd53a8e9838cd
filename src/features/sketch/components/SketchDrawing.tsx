import '../sketch.css'
import type { Outline } from '../geometry.ts'
import { layoutOf, neighbourPlaces, printScale, streetBaseline } from '../layout.ts'
import type { Neighbour } from '../neighbours.ts'

/** Paper width the drawing may take on an A4 page with 12 mm margins, in mm. */
export const PRINT_DRAWING_MM = 150

type Props = {
  outline: Outline
  neighbours: Neighbour[] | null
  street: string | null
  label: string
  sheetNo?: number | null
}

/**
 * The parcel drawn to scale (one drawing unit = one metre, north up), with corner numbers, side
 * lengths, neighbours on their sides, the street, a north arrow and a scale bar. On paper it is
 * printed at the standard scale that fits, given under the drawing.
 */
export function SketchDrawing({ outline, neighbours, street, label, sheetNo = null }: Props) {
  const l = layoutOf(outline)
  const [vx, vy, vw, vh] = l.viewBox
  const cx = vx + vw / 2
  const scale = printScale(Math.max(vw, vh), PRINT_DRAWING_MM)
  const bar = [1, 2, 5, 10, 20, 50, 100, 200, 500].find((m) => m >= l.extentM / 5) ?? 1000
  const f = l.fontM
  const bySide = new Map<string, string[]>()
  for (const n of neighbours ?? [])
    bySide.set(n.side, [
      ...(bySide.get(n.side) ?? []),
      `Thửa ${n.parcelNo ?? '?'}${n.sheetNo !== null && n.sheetNo !== sheetNo ? ` (tờ ${n.sheetNo})` : ''}`,
    ])
  return (
    <figure className="sketch-figure" style={{ ['--sketch-print-width' as string]: `${(vw * 1000) / scale}mm` }}>
      <svg
        viewBox={l.viewBox.join(' ')}
        role="img"
        aria-label={label}
        className="sketch-svg"
        data-testid="sketch-drawing"
      >
        <polygon
          points={l.points.map((p) => `${p.x},${p.y}`).join(' ')}
          className="sketch-parcel"
          strokeWidth={l.strokeM * 2}
        />
        {l.points.map((p, i) => (
          <circle key={`c${i}`} cx={p.x} cy={p.y} r={l.strokeM * 3} className="sketch-corner" />
        ))}
        {l.corners.map((c) => (
          <text
            key={`n${c.text}`}
            x={c.x}
            y={c.y}
            fontSize={f}
            className="sketch-corner-no"
            textAnchor="middle"
            dominantBaseline="central"
          >
            {c.text}
          </text>
        ))}
        {l.sides.map((s, i) => (
          <text
            key={`s${i}`}
            x={s.x}
            y={s.y}
            fontSize={f * 0.8}
            className="sketch-side"
            textAnchor="middle"
            dominantBaseline="central"
            transform={`rotate(${s.angle} ${s.x} ${s.y})`}
          >
            {s.text}
          </text>
        ))}
        {neighbourPlaces(l, bySide).map((p) => (
          <text key={p.side} x={p.x} fontSize={f * 0.7} className="sketch-neighbour" textAnchor={p.anchor}>
            {p.lines.map((line) => (
              <tspan key={line.text} x={p.x} y={line.y}>
                {line.text}
              </tspan>
            ))}
          </text>
        ))}
        {street && (
          <text x={cx} y={streetBaseline(l)} fontSize={f * 0.75} className="sketch-street" textAnchor="middle">
            {street}
          </text>
        )}
        <g transform={`translate(${vx + vw - f * 1.5} ${vy + f * 1.2})`} className="sketch-north">
          <path d={`M0 ${-f * 0.8} L${f * 0.4} ${f * 0.6} L0 ${f * 0.3} L${-f * 0.4} ${f * 0.6} Z`} />
          <text y={f * 1.5} fontSize={f * 0.7} textAnchor="middle">
            B
          </text>
        </g>
        <g transform={`translate(${vx + f * 0.3} ${vy + f * 1.6})`} className="sketch-scalebar">
          <rect width={bar} height={l.strokeM * 3} />
          <text y={-f * 0.3} fontSize={f * 0.7}>
            {bar} m
          </text>
        </g>
      </svg>
      <figcaption className="sketch-caption">
        Tỉ lệ khi in A4: 1:{scale.toLocaleString('vi-VN')} · Đơn vị: mét
      </figcaption>
    </figure>
  )
}
