import { useId, useState } from 'react'
import { Alert, Button, Group } from '@mantine/core'
import { IconCamera, IconCircleCheck, IconCircleX, IconTarget } from '@tabler/icons-react'
import { toVn2000 } from '#core/geo/vn2000.ts'
import { formatVn2000 } from '../../../lib/geo/coordinates.ts'
import { checkCapture, formatPrecise, type AverageTarget, type PositionSnapshot } from '../../position/index.ts'
import type { Target } from '../guide.ts'
import type { Mark } from '../marks.ts'
import { queueMarkPhoto } from '../photo.ts'
import { useAveraging } from '../use-averaging.ts'

/** Averaging runs: a number of fixes, or a time (every fix the gate lets through in it). */
const RUNS: { key: string; label: string; target: AverageTarget }[] = [
  ...[5, 10, 30, 60].map((n) => ({ key: `f${n}`, label: `${n} lần đo`, target: { kind: 'fixes' as const, count: n } })),
  ...[10, 30, 60].map((s) => ({ key: `s${s}`, label: `${s} giây`, target: { kind: 'seconds' as const, seconds: s } })),
]
const progress = (t: AverageTarget, samples: number) =>
  t.kind === 'fixes' ? `${samples}/${t.count}` : `${samples} lần đo trong ${t.seconds} giây`

/** What was measured at the target: the averaged point when there is one, else the current fix if the gate allows. */
function measuredAt(
  target: Target,
  averaged: ReturnType<typeof useAveraging>['result'],
  position: PositionSnapshot,
): { ok: true; measured: NonNullable<Mark['measured']> } | { ok: false; reason: string } {
  if (averaged)
    return {
      ok: true,
      measured: {
        ...averaged,
        accuracyM: Math.max(averaged.sigmaM, position.fix?.accuracyM ?? 0),
        quality: position.fix?.quality ?? 'none',
        sigmaM: averaged.sigmaM,
      },
    }
  const check = checkCapture(position)
  if (!check.ok) return check
  const v = toVn2000(check.fix.lat, check.fix.lng, target.meridian)
  return {
    ok: true,
    measured: {
      lat: check.fix.lat,
      lng: check.fix.lng,
      x: v.x,
      y: v.y,
      accuracyM: check.fix.accuracyM ?? 0,
      quality: check.fix.quality,
      sigmaM: null,
      samples: 1,
    },
  }
}

/**
 * At the target: average the position over N fixes, then mark the marker found or lost, with a note and
 * a photo that the outbox sends. A found marker needs a measurement the gate allows; a lost one is kept
 * with the measurement when there is one.
 */
export function MarkPanel(props: {
  target: Target
  subject: string | null
  parcelId: string | null
  position: PositionSnapshot
  onMarked: (m: Mark) => void
}) {
  const id = useId()
  const { target, position } = props
  const avg = useAveraging(target.meridian)
  const [runKey, setRunKey] = useState('f10')
  const run = RUNS.find((r) => r.key === runKey) ?? RUNS[1]!
  const [note, setNote] = useState('')
  const [photo, setPhoto] = useState<{ id: string; name: string } | null>(null)
  const [message, setMessage] = useState<string | null>(null)
  const [busy, setBusy] = useState(false)

  const mark = (status: Mark['status']) => {
    const m = measuredAt(target, avg.result, position)
    if (!m.ok && status === 'found') return setMessage(`Chưa ghi được: ${m.reason}`)
    setMessage(null)
    props.onMarked({
      id: crypto.randomUUID(),
      parcelId: props.parcelId,
      subject: props.subject,
      target,
      status,
      measured: m.ok ? m.measured : null,
      note: note.trim(),
      photoId: photo?.id ?? null,
      at: Date.now(),
    })
    setNote('')
    setPhoto(null)
    avg.clear()
  }

  const attach = async (file: File | undefined) => {
    if (!file) return
    setBusy(true)
    const out = await queueMarkPhoto(file, `${props.subject ? `${props.subject} · ` : ''}${target.label}`)
    setBusy(false)
    if (out.ok) setPhoto({ id: out.id, name: file.name })
    else setMessage(out.message)
  }

  const a = avg.result
  const shown = a ? formatVn2000(a) : null
  return (
    <section className="so-mark" aria-label={`Ghi kết quả tại ${target.label}`}>
      <Group gap="xs" align="end">
        <label className="so-field" htmlFor={`${id}-n`}>
          <span>Đo trung bình</span>
          <select id={`${id}-n`} value={runKey} onChange={(e) => setRunKey(e.currentTarget.value)}>
            {RUNS.map((r) => (
              <option key={r.key} value={r.key}>
                {r.label}
              </option>
            ))}
          </select>
        </label>
        {avg.run ? (
          <Button variant="default" onClick={avg.cancel}>
            Dừng ({progress(avg.run.target, avg.run.samples.length)})
          </Button>
        ) : (
          <Button
            variant="light"
            leftSection={<IconTarget size={18} aria-hidden />}
            onClick={() => avg.start(run.target)}
          >
            Đo điểm trung bình
          </Button>
        )}
      </Group>
      {avg.run?.refused && (
        <p className="so-error" role="status" data-testid="average-refused">
          Bỏ qua lần đo: {avg.run.refused}
        </p>
      )}
      {a && shown && (
        <p
          className="so-averaged"
          data-testid="averaged-point"
          data-x={a.x.toFixed(4)}
          data-y={a.y.toFixed(4)}
          data-sigma={a.sigmaM.toFixed(4)}
        >
          Trung bình {a.samples} lần đo: X {shown.x}, Y {shown.y}, độ phân tán σ {formatPrecise(a.sigmaM)}
        </p>
      )}
      <label className="so-field" htmlFor={`${id}-note`}>
        <span>Ghi chú</span>
        <input id={`${id}-note`} value={note} onChange={(e) => setNote(e.currentTarget.value)} maxLength={200} />
      </label>
      <label className="so-photo">
        <IconCamera size={20} aria-hidden />
        <span>{photo ? `Ảnh: ${photo.name} (sẽ gửi khi có mạng)` : busy ? 'Đang chuẩn bị ảnh…' : 'Chụp ảnh mốc'}</span>
        <input
          type="file"
          accept="image/*"
          capture="environment"
          className="visually-hidden"
          onChange={(e) => void attach(e.currentTarget.files?.[0])}
          data-testid="mark-photo"
        />
      </label>
      {message && (
        <Alert color="red" role="alert" data-testid="mark-refused">
          {message}
        </Alert>
      )}
      <div className="so-mark-actions">
        <Button
          color="teal"
          size="md"
          leftSection={<IconCircleCheck aria-hidden />}
          onClick={() => mark('found')}
          disabled={busy}
        >
          Đã tìm thấy mốc
        </Button>
        <Button
          color="red"
          variant="light"
          size="md"
          leftSection={<IconCircleX aria-hidden />}
          onClick={() => mark('lost')}
          disabled={busy}
        >
          Mốc bị mất
        </Button>
      </div>
    </section>
  )
}
