import { useId, useState, type FormEvent } from 'react'
import { Button, CloseButton } from '@mantine/core'
import { IconMapPin } from '@tabler/icons-react'
import {
  formatDecimal,
  formatMeridian,
  formatVn2000,
  parseCoordinate,
  type LatLng,
} from '../../../lib/geo/coordinates.ts'
import { autoMeridian, knownMeridians, provincesOnMeridian } from '#core/geo/provinces.ts'
import { toVn2000 } from '#core/geo/vn2000.ts'

export type MeridianChoice = 'auto' | number

/** The meridian in use: the user's choice, else the looked-up dataset's, else the province's by position. */
export function resolveMeridian(
  choice: MeridianChoice,
  point: LatLng,
  datasetMeridian?: number,
): { meridian: number; why: string } {
  if (choice !== 'auto') return { meridian: choice, why: 'chọn tay' }
  if (datasetMeridian !== undefined) return { meridian: datasetMeridian, why: 'theo bộ dữ liệu' }
  const auto = autoMeridian(point.lat, point.lng)
  return { meridian: auto.meridian, why: auto.province ? `tự động: ${auto.province}` : 'tự động: kinh tuyến gần nhất' }
}

/**
 * VN-2000 readout of the map centre (or the pin, or the looked-up point) with the meridian chosen per
 * province, and "Đi đến toạ độ" that takes VN-2000 X/Y, decimal degrees or degrees-minutes-seconds.
 * On phones it folds into a chip that shows X and Y.
 */
export function CoordinatePanel(props: {
  point: LatLng
  pointLabel: string
  datasetMeridian?: number
  choice: MeridianChoice
  onChoice: (c: MeridianChoice) => void
  /** Called with the place and a sentence saying where that is. */
  onGoTo: (p: LatLng, said: string) => void
  compact: boolean
}) {
  const id = useId()
  const [open, setOpen] = useState(!props.compact)
  const [tools, setTools] = useState(props.compact)
  const [text, setText] = useState('')
  const [message, setMessage] = useState<{ ok: boolean; text: string } | null>(null)
  const { meridian, why } = resolveMeridian(props.choice, props.point, props.datasetMeridian)
  const grid = formatVn2000(toVn2000(props.point.lat, props.point.lng, meridian))

  const submit = (e: FormEvent) => {
    e.preventDefault()
    const r = parseCoordinate(text, meridian)
    if (!r.ok) {
      setMessage({ ok: false, text: r.error })
      return
    }
    const echo =
      r.kind === 'vn2000'
        ? `VN-2000 X ${formatVn2000(r).x}, Y ${formatVn2000(r).y} (kinh tuyến trục ${formatMeridian(r.meridian)}) = ${formatDecimal(r)}`
        : formatDecimal(r)
    setMessage({ ok: true, text: `Đã đến ${echo}.` })
    props.onGoTo({ lat: r.lat, lng: r.lng }, `Đã đến ${echo}.`)
    // On a phone the open panel would hide the place just reached: fold back to the chip.
    if (props.compact) setOpen(false)
  }

  if (!open) {
    const whole = (v: string) => v.replace(/,\d+$/, '')
    return (
      <button
        type="button"
        className="qh-chip qh-floating"
        onClick={() => setOpen(true)}
        aria-expanded={false}
        data-testid="vn2000-chip"
      >
        {/* The name starts with the words shown, as voice control users say them; the rest is only heard. */}X{' '}
        {whole(grid.x)} · Y {whole(grid.y)}
        <span className="visually-hidden">
          {' '}
          — VN-2000 của {props.pointLabel.toLowerCase()}: X {grid.x}, Y {grid.y}. Mở bảng toạ độ
        </span>
      </button>
    )
  }

  return (
    <section
      className="qh-panel qh-floating qh-coords-open"
      aria-labelledby={`${id}-h`}
      style={{ width: 'min(340px, calc(100vw - 20px))', position: 'relative' }}
      data-testid="vn2000-panel"
    >
      {props.compact && (
        <CloseButton
          size="lg"
          aria-label="Thu gọn bảng toạ độ"
          onClick={() => setOpen(false)}
          style={{ position: 'absolute', top: 4, right: 4 }}
        />
      )}
      <h2 id={`${id}-h`}>VN-2000 · {props.pointLabel}</h2>
      <dl className="qh-readout" aria-live="off">
        <dt>X (hướng bắc)</dt>
        <dd data-testid="vn2000-x">{grid.x} m</dd>
        <dt>Y (hướng đông)</dt>
        <dd data-testid="vn2000-y">{grid.y} m</dd>
        <dt>Vĩ độ, kinh độ</dt>
        <dd data-testid="latlng">{formatDecimal(props.point)}</dd>
      </dl>
      {!tools ? (
        <Button
          variant="default"
          size="sm"
          mt={8}
          onClick={() => setTools(true)}
          aria-expanded={false}
          data-testid="goto-open"
        >
          Đi đến toạ độ · đổi kinh tuyến
        </Button>
      ) : (
        <>
          <label className="qh-field">
            <span>Kinh tuyến trục ({why})</span>
            <select
              value={props.choice === 'auto' ? 'auto' : String(props.choice)}
              onChange={(e) =>
                props.onChoice(e.currentTarget.value === 'auto' ? 'auto' : Number(e.currentTarget.value))
              }
              data-testid="meridian"
            >
              <option value="auto">Tự động ({formatMeridian(meridian)})</option>
              {knownMeridians.map((m) => (
                <option key={m} value={m}>
                  {formatMeridian(m)} — {provincesOnMeridian(m).join(', ')}
                </option>
              ))}
            </select>
          </label>
          <form onSubmit={submit} className="qh-field">
            <label htmlFor={`${id}-goto`}>Đi đến toạ độ (VN-2000 X Y, hoặc vĩ độ, kinh độ)</label>
            <div style={{ display: 'flex', gap: 6 }}>
              <input
                id={`${id}-goto`}
                type="text"
                inputMode="text"
                autoComplete="off"
                spellCheck={false}
                placeholder="X 1194784 Y 602695 · 10.8026, 106.6909"
                value={text}
                onChange={(e) => setText(e.currentTarget.value)}
                style={{ flex: 1, minWidth: 0 }}
                data-testid="goto-input"
                aria-describedby={message ? `${id}-msg` : undefined}
              />
              <Button type="submit" leftSection={<IconMapPin size={18} aria-hidden />}>
                Đi
              </Button>
            </div>
            {message && (
              <p
                id={`${id}-msg`}
                role={message.ok ? 'status' : 'alert'}
                className={message.ok ? undefined : 'qh-error'}
                style={{ margin: 0, fontSize: 13 }}
                data-testid="goto-message"
              >
                {message.text}
              </p>
            )}
          </form>
        </>
      )}
    </section>
  )
}
