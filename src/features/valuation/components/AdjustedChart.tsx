import type { Comparable } from '#core/contract/lookups.ts'
import { formatMoneyShort } from '../../../lib/format/format.ts'
import { laneOffset, swarmLanes } from '../chart-layout.ts'

// In SVG units about one CSS pixel on a phone (the chart is drawn at most 560 px wide, see valuation.css).
const W = 400
const PAD = 14
const AXIS_Y = 70
const LANE_H = 11

type Props = {
  comparables: Comparable[]
  estimate: { perM2: number; lowPerM2: number; highPerM2: number }
  selectedId: string | null
  onSelect: (id: string) => void
}

/**
 * Adjusted prices per m² of the comparables on one axis (dot size = weight), with the estimate (line)
 * and its range (band): whether the figure sits among the evidence is visible at a glance.
 */
export function AdjustedChart({ comparables, estimate, selectedId, onSelect }: Props) {
  const list = comparables.filter((c) => c.adjusted_vnd_per_m2 !== undefined)
  if (list.length === 0) return null
  const values = list.map((c) => c.adjusted_vnd_per_m2 as number)
  const lo = Math.min(...values, estimate.lowPerM2)
  const hi = Math.max(...values, estimate.highPerM2)
  const span = hi - lo || 1
  const x = (v: number) => PAD + ((v - lo) / span) * (W - 2 * PAD)
  const maxW = Math.max(...list.map((c) => c.weight ?? 0), 1e-9)
  const radius = (c: Comparable) => 2.5 + 4.5 * Math.sqrt((c.weight ?? 0) / maxW)
  const lanes = swarmLanes(values.map(x), 10)
  const deepest = Math.max(0, ...lanes.map((l) => Math.abs(laneOffset(l))))
  const height = AXIS_Y + Math.max(3, deepest + 1) * LANE_H + 28
  const top = AXIS_Y - Math.max(3, deepest + 1) * LANE_H
  return (
    <svg
      viewBox={`0 ${top - 26} ${W} ${height - top + 26}`}
      className="adjusted-chart"
      role="img"
      aria-label={`Đơn giá đã điều chỉnh của ${list.length} giao dịch, từ ${formatMoneyShort(Math.min(...values))} đến ${formatMoneyShort(Math.max(...values))}/m²; ước tính ${formatMoneyShort(estimate.perM2)}/m², khoảng ${formatMoneyShort(estimate.lowPerM2)}–${formatMoneyShort(estimate.highPerM2)}/m²`}
      data-testid="adjusted-chart"
    >
      <rect
        x={x(estimate.lowPerM2)}
        y={top - 4}
        width={Math.max(1, x(estimate.highPerM2) - x(estimate.lowPerM2))}
        height={height - top - 22}
        className="chart-range"
      />
      <line x1={PAD} x2={W - PAD} y1={AXIS_Y} y2={AXIS_Y} className="chart-axis" />
      <line x1={x(estimate.perM2)} x2={x(estimate.perM2)} y1={top - 8} y2={height - 22} className="chart-estimate" />
      <text x={x(estimate.perM2)} y={top - 10} textAnchor="middle" className="chart-label chart-label-strong">
        Ước tính {formatMoneyShort(estimate.perM2)}
      </text>
      {list.map((c, i) => {
        const cx = x(c.adjusted_vnd_per_m2 as number)
        const cy = AXIS_Y + laneOffset(lanes[i] ?? 0) * LANE_H
        const selected = c.id === selectedId
        const r = radius(c) + (selected ? 2 : 0)
        const cls = `chart-dot${c.repeat_sale ? ' chart-dot-repeat' : c.same_row ? ' chart-dot-row' : ''}${selected ? ' chart-dot-selected' : ''}`
        return c.repeat_sale ? (
          <rect
            key={c.id}
            x={cx - r}
            y={cy - r}
            width={2 * r}
            height={2 * r}
            transform={`rotate(45 ${cx} ${cy})`}
            className={cls}
            onClick={() => onSelect(c.id)}
          />
        ) : (
          <circle key={c.id} cx={cx} cy={cy} r={r} className={cls} onClick={() => onSelect(c.id)} />
        )
      })}
      <text x={x(estimate.lowPerM2)} y={height - 8} textAnchor="start" className="chart-label">
        {formatMoneyShort(estimate.lowPerM2)}
      </text>
      <text x={x(estimate.highPerM2)} y={height - 8} textAnchor="end" className="chart-label">
        {formatMoneyShort(estimate.highPerM2)}/m²
      </text>
    </svg>
  )
}
