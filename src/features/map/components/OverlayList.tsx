import { useId } from 'react'
import type { OverlayTileJson } from '#core/contract/tiles.ts'
import { formatDate } from '../../../lib/format/format.ts'
import { choiceOf, type OverlayChoice } from '../overlays.ts'

/** The scanned planning maps of the visible area, each with on/off and its own opacity. */
export function OverlayList(props: {
  overlays: OverlayTileJson[]
  choices: Record<string, OverlayChoice>
  onChoice: (id: string, patch: Partial<OverlayChoice>) => void
}) {
  const id = useId()
  return (
    <fieldset
      className="qh-overlays"
      aria-labelledby={`${id}-h`}
      data-testid="overlay-list"
      style={{ border: 0, padding: 0, margin: '6px 0 0' }}
    >
      <legend id={`${id}-h`} style={{ fontWeight: 600 }}>
        Bản đồ quy hoạch (ảnh quét)
      </legend>
      {props.overlays.length === 0 && (
        <p style={{ margin: '2px 0', fontSize: 13 }}>Không có bản đồ quét nào trong vùng đang xem.</p>
      )}
      {props.overlays.map((o) => {
        const c = choiceOf(props.choices, o.id)
        return (
          <div key={o.id} data-testid={`overlay-${o.id}`} style={{ marginBottom: 6 }}>
            <label className="qh-check">
              <input
                type="checkbox"
                checked={c.on}
                onChange={(e) => props.onChoice(o.id, { on: e.currentTarget.checked })}
                aria-describedby={`${id}-${o.id}`}
              />
              {o.name}
            </label>
            <div id={`${id}-${o.id}`} style={{ fontSize: 12, marginLeft: 26 }}>
              {o.plan_level} · QĐ {o.decision_no} ngày {formatDate(o.approved_at)}
            </div>
            <label className="qh-field" style={{ marginLeft: 26 }}>
              <span>Độ đậm: {Math.round(c.opacity * 100)}%</span>
              <input
                className="qh-range"
                type="range"
                min={10}
                max={100}
                step={5}
                value={Math.round(c.opacity * 100)}
                disabled={!c.on}
                aria-label={`Độ đậm của ${o.name}`}
                onChange={(e) => props.onChoice(o.id, { opacity: Number(e.currentTarget.value) / 100 })}
                data-testid="overlay-opacity"
              />
            </label>
          </div>
        )
      })}
    </fieldset>
  )
}
