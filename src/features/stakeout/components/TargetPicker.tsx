import { useId, useState } from 'react'
import { Button } from '@mantine/core'
import { knownMeridians } from '#core/geo/provinces.ts'
import { toVn2000 } from '#core/geo/vn2000.ts'
import { formatMeridian, formatVn2000, parseCoordinate } from '../../../lib/geo/coordinates.ts'
import type { Outline } from '../../sketch/index.ts'
import type { Target } from '../guide.ts'

/** The parcel's corners as the corner table lists them, each a button that makes it the target. */
export function CornerList(props: { outline: Outline; target: Target | null; onPick: (t: Target) => void }) {
  return (
    <ol className="so-corners" aria-label="Góc thửa để cắm mốc">
      {props.outline.corners.map((c) => {
        const v = formatVn2000(c)
        const chosen = props.target?.corner === c.n
        return (
          <li key={c.n}>
            <Button
              variant={chosen ? 'filled' : 'default'}
              aria-pressed={chosen}
              fullWidth
              justify="space-between"
              onClick={() =>
                props.onPick({ x: c.x, y: c.y, meridian: props.outline.meridian, corner: c.n, label: `Góc ${c.n}` })
              }
              data-testid={`corner-${c.n}`}
              data-lat={c.lat}
              data-lng={c.lng}
            >
              <span>Góc {c.n}</span>
              <span className="so-xy">
                X {v.x} · Y {v.y}
              </span>
            </Button>
          </li>
        )
      })}
    </ol>
  )
}

/** A VN-2000 coordinate typed by hand (X northing first, or labelled), on a chosen central meridian. */
export function TypedTarget(props: { meridian: number; onPick: (t: Target) => void }) {
  const id = useId()
  const [text, setText] = useState('')
  const [meridian, setMeridian] = useState(props.meridian)
  const [error, setError] = useState<string | null>(null)
  const submit = () => {
    const p = parseCoordinate(text, meridian)
    if (!p.ok) return setError(p.error)
    setError(null)
    const v = p.kind === 'vn2000' ? p : { ...toVn2000(p.lat, p.lng, meridian), meridian }
    const shown = formatVn2000(v)
    props.onPick({ x: v.x, y: v.y, meridian, corner: null, label: `Điểm X ${shown.x}, Y ${shown.y}` })
  }
  return (
    <form
      className="so-typed"
      onSubmit={(e) => {
        e.preventDefault()
        submit()
      }}
    >
      <label htmlFor={`${id}-xy`}>Toạ độ VN-2000 (X Y)</label>
      <input
        id={`${id}-xy`}
        value={text}
        onChange={(e) => setText(e.currentTarget.value)}
        placeholder="X 1194020,15 Y 602000,30"
        inputMode="decimal"
        aria-invalid={error !== null}
        aria-describedby={error ? `${id}-err` : undefined}
        data-testid="typed-coordinate"
      />
      <label htmlFor={`${id}-m`}>Kinh tuyến trục</label>
      <select id={`${id}-m`} value={meridian} onChange={(e) => setMeridian(Number(e.currentTarget.value))}>
        {knownMeridians.map((m) => (
          <option key={m} value={m}>
            {formatMeridian(m)}
          </option>
        ))}
      </select>
      {error && (
        <p id={`${id}-err`} role="alert" className="so-error">
          {error}
        </p>
      )}
      <Button type="submit" variant="light">
        Dẫn tới điểm này
      </Button>
    </form>
  )
}
