import { formatPrecise } from '../../position/index.ts'
import type { Guidance } from '../guide.ts'

/** Within this distance the close-range view takes over: the target's surroundings to scale, in centimetres. */
export const CLOSE_RANGE_M = 1

/** The arrow toward the target (north up), rotated by the grid bearing. */
function Arrow({ bearingDeg }: { bearingDeg: number }) {
  return (
    <svg viewBox="-50 -50 100 100" className="so-arrow" aria-hidden>
      <circle r="46" className="so-ring" />
      <text y="-36" className="so-north">
        B
      </text>
      <g transform={`rotate(${bearingDeg.toFixed(1)})`}>
        <path d="M0,-38 L18,6 L6,2 L6,34 L-6,34 L-6,2 L-18,6 Z" className="so-arrow-shape" />
      </g>
    </svg>
  )
}

/**
 * Below a metre: the target at the centre, the tolerance as a green ring, and where the antenna is now,
 * to scale (the view spans ± 1 m, or ± 4 tolerances when closer), north up.
 */
function CloseRange({ g, toleranceM }: { g: Guidance; toleranceM: number }) {
  const span = Math.max(Math.min(CLOSE_RANGE_M, Math.max(g.distanceM * 1.3, toleranceM * 4)), 0.05)
  const k = 45 / span
  // The antenna sits opposite the way still to go.
  const ax = -g.east * k
  const ay = g.north * k
  return (
    <svg viewBox="-50 -50 100 100" className="so-close" aria-hidden>
      <line x1="-48" y1="0" x2="48" y2="0" className="so-cross" />
      <line x1="0" y1="-48" x2="0" y2="48" className="so-cross" />
      <circle r={Math.max(toleranceM * k, 1.5)} className="so-tolerance" />
      <circle r="1.5" className="so-target" />
      <circle cx={ax} cy={ay} r="4" className="so-antenna" />
      <text x="-48" y="-40" className="so-scale">
        ± {formatPrecise(span)}
      </text>
    </svg>
  )
}

/** Distance, the words to walk by, the large arrow, and in close range the centimetre view; green when reached. */
export function GuidanceView({ g, toleranceM, label }: { g: Guidance; toleranceM: number; label: string }) {
  const close = g.distanceM < CLOSE_RANGE_M
  return (
    <section
      className="so-guide"
      data-testid="stakeout-guidance"
      data-state={g.reached ? 'reached' : close ? 'close' : 'far'}
      data-distance={g.distanceM.toFixed(3)}
      aria-label={`Dẫn tới ${label}`}
    >
      <div className="so-distance" data-testid="stakeout-distance">
        {formatPrecise(g.distanceM)}
      </div>
      <p className="so-words" aria-live="polite" data-testid="stakeout-words">
        {g.words}
        {g.reached ? ` (trong phạm vi ${formatPrecise(toleranceM)})` : ''}
      </p>
      {close ? <CloseRange g={g} toleranceM={toleranceM} /> : <Arrow bearingDeg={g.bearingDeg} />}
    </section>
  )
}
