import { alarming, readoutLine } from '../readout.ts'
import type { PositionSnapshot } from '../source.ts'

/**
 * The position in one line, on every screen that uses it: source, solution type, accuracy, satellites
 * and age; red at once when the fix goes stale, the receiver loses its solution or the solution drops.
 */
export function PositionStatus({ position, className }: { position: PositionSnapshot; className?: string }) {
  const alarm = alarming(position)
  return (
    <div
      className={`qh-pos-status${className ? ` ${className}` : ''}`}
      role={alarm ? 'alert' : 'status'}
      data-testid="position-status"
      data-status={position.status}
      data-quality={position.fix?.quality ?? ''}
      data-alarm={alarm}
    >
      <span className="qh-pos-dot" aria-hidden />
      <span>{readoutLine(position)}</span>
    </div>
  )
}
