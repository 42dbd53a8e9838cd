import { toVn2000 } from '#core/geo/vn2000.ts'
import type { Outline } from '../../sketch/index.ts'
import type { WalkPoint } from '../track.ts'

type Props = {
  points: WalkPoint[]
  meridian: number
  parcel: Outline | null
  closed: boolean
  here: { lat: number; lng: number; accuracyM: number } | null
}

/**
 * The walk so far, north up in metres: the registered parcel dashed, the walked boundary with each
 * point drawn as a circle as wide as its accuracy, and where the device is now.
 */
export function WalkDrawing({ points, meridian, parcel, closed, here }: Props) {
  const toXy = (p: { lat: number; lng: number }) => {
    const v = toVn2000(p.lat, p.lng, meridian)
    return { x: v.y, y: -v.x }
  }
  const walked = points.map(toXy)
  const registered = parcel?.corners.map(toXy) ?? []
  const now = here ? toXy(here) : null
  const all = [...walked, ...registered, ...(now ? [now] : [])]
  if (all.length === 0) return null
  const xs = all.map((p) => p.x)
  const ys = all.map((p) => p.y)
  const extent = Math.max(Math.max(...xs) - Math.min(...xs), Math.max(...ys) - Math.min(...ys), 10)
  const pad = extent * 0.15
  const viewBox = [
    Math.min(...xs) - pad,
    Math.min(...ys) - pad,
    Math.max(...xs) - Math.min(...xs) + 2 * pad,
    Math.max(...ys) - Math.min(...ys) + 2 * pad,
  ]
  const stroke = extent / 200
  const line = walked.map((p) => `${p.x},${p.y}`).join(' ')
  return (
    <svg
      viewBox={viewBox.join(' ')}
      className="walk-svg"
      role="img"
      aria-label={`Ranh đã đi: ${points.length} điểm`}
      data-testid="walk-drawing"
    >
      {registered.length > 2 && (
        <polygon
          points={registered.map((p) => `${p.x},${p.y}`).join(' ')}
          className="walk-registered"
          strokeWidth={stroke * 1.5}
          strokeDasharray={`${stroke * 6} ${stroke * 4}`}
        />
      )}
      {walked.length > 1 &&
        (closed ? (
          <polygon points={line} className="walk-line" strokeWidth={stroke * 2} />
        ) : (
          <polyline points={line} className="walk-line" strokeWidth={stroke * 2} />
        ))}
      {walked.map((p, i) => (
        <g key={i}>
          <circle cx={p.x} cy={p.y} r={points[i]!.accuracyM} className="walk-accuracy" />
          <circle
            cx={p.x}
            cy={p.y}
            r={stroke * (points[i]!.corner ? 4 : 2)}
            className={points[i]!.corner ? 'walk-corner' : 'walk-point'}
          />
        </g>
      ))}
      {now && !closed && (
        <g>
          <circle cx={now.x} cy={now.y} r={here!.accuracyM} className="walk-here-accuracy" />
          <circle cx={now.x} cy={now.y} r={stroke * 4} className="walk-here" />
        </g>
      )}
    </svg>
  )
}
