import { formatArea, formatMeters } from '../../../lib/format/format.ts'
import { formatAccuracy, QUALITY_WORDS } from '../../position/index.ts'
import { walkFigures, type Walk } from '../track.ts'

/** The live numbers of a walk: points, area, perimeter, worst accuracy. */
export function WalkFigures({ walk }: { walk: Walk }) {
  const f = walkFigures(walk)
  return (
    <dl className="walk-figures" aria-live="polite" data-testid="walk-figures">
      <div>
        <dt>Số điểm</dt>
        <dd data-testid="walk-count">{walk.points.length}</dd>
      </div>
      <div>
        <dt>Diện tích</dt>
        <dd data-testid="walk-area" data-m2={f.areaM2.toFixed(2)} data-sigma-m2={f.areaSigmaM2.toFixed(3)}>
          {walk.points.length >= 3 ? `${formatArea(f.areaM2)} ± ${formatArea(f.areaSigmaM2)}` : '—'}
        </dd>
      </div>
      <div>
        <dt>Chu vi</dt>
        <dd>{walk.points.length >= 2 ? formatMeters(f.perimeterM) : '—'}</dd>
      </div>
      <div>
        <dt>Sai số lớn nhất</dt>
        <dd>{f.worstAccuracyM === null ? '—' : formatAccuracy(f.worstAccuracyM)}</dd>
      </div>
    </dl>
  )
}

/** Each recorded point with its accuracy and solution type, newest last. */
export function WalkPointList({ walk }: { walk: Walk }) {
  if (walk.points.length === 0) return null
  return (
    <ol className="walk-points" aria-label="Các điểm đã ghi">
      {walk.points.map((p, i) => (
        <li key={i}>
          {p.corner ? 'Góc' : 'Điểm'} {i + 1}: {formatAccuracy(p.accuracyM)}
          {p.quality ? ` · ${QUALITY_WORDS[p.quality]}` : ''}
        </li>
      ))}
    </ol>
  )
}
