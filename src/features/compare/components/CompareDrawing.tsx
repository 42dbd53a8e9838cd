import type { CompareData, PlanChange } from '#core/contract/plans.ts'
import { drawingFrame } from '../compare.ts'

type Props = {
  region: CompareData['region']
  pieces: NonNullable<CompareData['comparison']>['pieces']['from']
  title: string
  /** The change picked in the list, outlined on both drawings. */
  highlight: PlanChange | null
}

/** One plan clipped to the place, coloured by land use, with the picked change outlined. */
export function CompareDrawing({ region, pieces, title, highlight }: Props) {
  const frame = drawingFrame(region.geometry)
  return (
    <figure className="qh-compare-figure">
      <figcaption>{title}</figcaption>
      <svg
        viewBox={frame.viewBox}
        role="img"
        aria-label={`${title}: ${pieces.map((p) => p.land_use_code).join(', ') || 'không có ô quy hoạch'}`}
      >
        <path d={frame.path(region.geometry)} className="qh-compare-region" strokeWidth={frame.stroke} />
        {pieces.map((p, i) => (
          <path
            key={i}
            d={frame.path(p.geometry)}
            fill={p.color}
            fillRule="evenodd"
            className="qh-compare-piece"
            strokeWidth={frame.stroke / 2}
          >
            <title>{`${p.land_use_code} — ${p.land_use_name}`}</title>
          </path>
        ))}
        {highlight && (
          <path
            d={frame.path(highlight.geometry)}
            fillRule="evenodd"
            className="qh-compare-highlight"
            strokeWidth={frame.stroke * 2}
            data-testid="compare-highlight"
          />
        )}
      </svg>
    </figure>
  )
}
