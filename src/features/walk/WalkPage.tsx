import '@mantine/core/styles/Table.css'
import '@mantine/core/styles/Alert.css'
import '@mantine/core/styles/SegmentedControl.css'
import './walk.css'
import { useEffect, useState } from 'react'
import { Alert, Button, Container, Group, SegmentedControl, Stack, Text, Title } from '@mantine/core'
import { IconCheck, IconMapPin, IconPlayerPlay, IconTrash, IconArrowBackUp } from '@tabler/icons-react'
import { formatDateTime } from '../../lib/format/format.ts'
import { useWakeLock } from '../../lib/wake-lock.ts'
import { checkCapture, PositionStatusLine, usePosition, type Fix as PositionFix } from '../position/index.ts'
import { GpsSettings } from '../position/pages.ts'
import { loadSketch, type SketchSubject } from '../sketch/index.ts'
import { WalkDrawing } from './components/WalkDrawing.tsx'
import { WalkFigures, WalkPointList } from './components/WalkFigures.tsx'
import { WalkResult } from './components/WalkResult.tsx'
import { DEFAULT_STEP_M, type Fix, type WalkMode } from './track.ts'
import { useWalk } from './use-walk.ts'

/** A fix the gate let through, as the walk records it (the gate has made sure there is an accuracy). */
const walkFix = (f: PositionFix): Fix => ({
  lat: f.lat,
  lng: f.lng,
  accuracyM: f.accuracyM ?? 0,
  at: f.at,
  quality: f.quality,
})

function useParcel(parcelId: string | undefined): SketchSubject | null {
  const [subject, setSubject] = useState<SketchSubject | null>(null)
  useEffect(() => {
    if (!parcelId) return
    const ctrl = new AbortController()
    loadSketch({ parcel: parcelId }, ctrl.signal).then(
      (r) => !ctrl.signal.aborted && setSubject(r.ok ? r.subject : null),
      () => undefined,
    )
    return () => ctrl.abort()
  }, [parcelId])
  return subject
}

/**
 * The GPS boundary walk: start at a corner, tap at each corner (or let it record every few metres),
 * see the polygon, area, perimeter and each point's accuracy as it grows; at the end, the difference
 * from the registered parcel and the sketch's exports. Needs no network; the walk is kept on the
 * device after every point and the screen is kept on while walking.
 */
export function WalkPage({ parcelId }: { parcelId?: string }) {
  const w = useWalk()
  const walk = w.walk
  const parcel = useParcel(walk?.parcelId ?? parcelId)
  const walking = !!walk && walk.finishedAt === null
  const position = usePosition(walk === null || walking)
  const check = checkCapture(position)
  const fix = position.fix
  const [mode, setMode] = useState<WalkMode>('corners')
  const [confirmDiscard, setConfirmDiscard] = useState(false)
  const [refused, setRefused] = useState<string | null>(null)
  const [gpsOpen, setGpsOpen] = useState(false)
  useWakeLock(walking)
  // Auto mode records from every fix the gate lets through; the walk decides whether it is far enough.
  const accepted = check.ok ? check.fix : null
  const onFix = w.onFix
  useEffect(() => {
    if (accepted) onFix(walkFix(accepted))
  }, [accepted, onFix])
  if (walk === undefined) return null
  const parcelLabel = parcel ? `thửa ${parcel.parcelNo ?? '?'}, tờ ${parcel.sheetNo ?? '?'}` : null
  const capture = (then: (f: Fix) => void) => {
    if (!check.ok) return setRefused(check.reason)
    setRefused(null)
    then(walkFix(check.fix))
  }

  return (
    <Container size="md" py="lg" w="100%">
      <Stack gap="md">
        <div>
          <Title order={1}>Đi đo ranh thửa</Title>
          <Text c="dimmed">
            Đứng ở một góc thửa, bắt đầu, rồi đi quanh ranh và chạm "Ghi góc" ở mỗi góc. Không cần mạng; lượt đo được
            lưu trên máy sau mỗi điểm.
            {parcelLabel && ` Kết quả được so với ${parcelLabel}.`}
          </Text>
        </div>
        {(walk === null || walking) && <PositionStatusLine position={position} className="qh-pos-sticky" />}
        {(walk === null || walking) && (
          <div data-testid="walk-gps" data-lat={fix?.lat} data-lng={fix?.lng}>
            {!check.ok && position.status === 'live' && (
              <Text size="sm" c="var(--qh-text-warning)" mt={4}>
                {check.reason}
              </Text>
            )}
            <details className="walk-gps-settings" open={gpsOpen} onToggle={(e) => setGpsOpen(e.currentTarget.open)}>
              <summary>Nguồn định vị và độ chính xác tối thiểu</summary>
              {/* Mounted only while open: folded, the browser still lays its controls out, under the start
                  button, though nothing of them shows. */}
              {gpsOpen && <GpsSettings position={position} />}
            </details>
          </div>
        )}
        {walk === null && (
          <Stack gap="sm">
            <SegmentedControl
              value={mode}
              onChange={(v) => setMode(v as WalkMode)}
              aria-label="Cách ghi điểm"
              data={[
                { value: 'corners', label: 'Chạm ở mỗi góc' },
                { value: 'auto', label: `Tự ghi mỗi ${DEFAULT_STEP_M} m` },
              ]}
            />
            <Button
              size="lg"
              leftSection={<IconPlayerPlay aria-hidden />}
              disabled={!check.ok}
              onClick={() =>
                capture((f) =>
                  w.start(mode, f, {
                    parcelId: parcel?.parcelId ?? parcelId ?? null,
                    meridian: parcel?.outline.meridian ?? null,
                  }),
                )
              }
            >
              Bắt đầu tại góc này
            </Button>
          </Stack>
        )}
        {walk && (
          <>
            <Text size="sm" c="dimmed">
              Lượt đo bắt đầu lúc {formatDateTime(walk.startedAt)}
              {walk.finishedAt !== null && `, xong lúc ${formatDateTime(walk.finishedAt)}`}.
            </Text>
            <WalkFigures walk={walk} />
            <WalkDrawing
              points={walk.points}
              meridian={walk.meridian}
              parcel={parcel?.outline ?? null}
              closed={!walking}
              here={walking && fix ? { ...fix, accuracyM: fix.accuracyM ?? 0 } : null}
            />
          </>
        )}
        {walking && (
          <Stack gap="xs">
            {refused ? (
              <Alert color="red" role="alert" data-testid="capture-refused">
                Góc chưa được ghi: {refused}
              </Alert>
            ) : (
              w.lastSkip === 'inaccurate' && (
                <Alert color="orange">GPS chưa đủ chính xác, góc chưa được ghi. Đứng yên vài giây rồi chạm lại.</Alert>
              )
            )}
            <Button
              size="lg"
              leftSection={<IconMapPin aria-hidden />}
              disabled={!fix}
              onClick={() => capture(w.markCorner)}
            >
              Ghi góc
            </Button>
            <Group grow>
              <Button
                variant="default"
                leftSection={<IconArrowBackUp size={18} aria-hidden />}
                disabled={walk.points.length === 0}
                onClick={w.undo}
              >
                Bỏ điểm cuối
              </Button>
              <Button
                color="teal"
                leftSection={<IconCheck size={18} aria-hidden />}
                disabled={walk.points.length < 3}
                onClick={w.done}
              >
                Hoàn tất
              </Button>
            </Group>
            <WalkPointList walk={walk} />
          </Stack>
        )}
        {walk && !walking && (
          <>
            <WalkResult walk={walk} parcel={parcel?.outline ?? null} parcelLabel={parcelLabel} />
            <Button variant="default" onClick={w.resume}>
              Đo tiếp lượt này
            </Button>
          </>
        )}
        {walk &&
          (confirmDiscard ? (
            <Alert color="red" title="Xoá lượt đo này?" role="alertdialog">
              <Group gap="xs" mt="xs">
                <Button color="red" onClick={() => (setConfirmDiscard(false), w.discard())}>
                  Xoá
                </Button>
                <Button variant="default" onClick={() => setConfirmDiscard(false)}>
                  Giữ lại
                </Button>
              </Group>
            </Alert>
          ) : (
            <Button
              variant="subtle"
              color="red"
              leftSection={<IconTrash size={18} aria-hidden />}
              onClick={() => setConfirmDiscard(true)}
            >
              Xoá lượt đo, bắt đầu lại
            </Button>
          ))}
      </Stack>
    </Container>
  )
}
