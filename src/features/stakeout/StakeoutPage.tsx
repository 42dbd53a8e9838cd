import '@mantine/core/styles/Alert.css'
import './stakeout.css'
import { useCallback, useEffect, useId, useState } from 'react'
import { Alert, Button, Container, Group, Loader, Stack, Text, Title } from '@mantine/core'
import { Link } from '@tanstack/react-router'
import { autoMeridian } from '#core/geo/provinces.ts'
import { useWakeLock } from '../../lib/wake-lock.ts'
import { formatPrecise, PositionStatusLine, usePosition } from '../position/index.ts'
import { GpsSettings } from '../position/pages.ts'
import { loadSketch, type SketchQuery, type SketchResult } from '../sketch/index.ts'
import { GuidanceView } from './components/GuidanceView.tsx'
import { MarkPanel } from './components/MarkPanel.tsx'
import { MarksList } from './components/MarksList.tsx'
import { CornerList, TypedTarget } from './components/TargetPicker.tsx'
import { DEFAULT_TOLERANCE_M, guide, TOLERANCES_M, type Target } from './guide.ts'
import { listMarks, removeMark, saveMark, type Mark } from './marks.ts'

function useSubject(query: SketchQuery): SketchResult | null | undefined {
  const [result, setResult] = useState<SketchResult | null | undefined>(undefined)
  const { parcel, lat, lng } = query
  useEffect(() => {
    if (!parcel && lat === undefined) return setResult(null)
    const ctrl = new AbortController()
    setResult(undefined)
    loadSketch({ parcel, lat, lng }, ctrl.signal).then(
      (r) => !ctrl.signal.aborted && setResult(r),
      () => !ctrl.signal.aborted && setResult({ ok: false, reason: 'not-found' }),
    )
    return () => ctrl.abort()
  }, [parcel, lat, lng])
  return result
}

function useMarks() {
  const [marks, setMarks] = useState<Mark[]>([])
  useEffect(() => {
    let alive = true
    listMarks().then(
      (m) => alive && setMarks(m),
      (err: unknown) => console.warn('stakeout results unavailable', err),
    )
    return () => {
      alive = false
    }
  }, [])
  const add = useCallback((m: Mark) => {
    setMarks((list) => [...list, m])
    void saveMark(m).catch((err: unknown) => console.warn('stakeout result not saved', err))
  }, [])
  const clear = useCallback(() => {
    setMarks((list) => {
      for (const m of list) void removeMark(m.id)
      return []
    })
  }, [])
  return { marks, add, clear }
}

/**
 * Stakeout ("Cắm mốc"): a parcel's corners from the lookup history or the saved tiles (so it works
 * offline), or a typed VN-2000 coordinate; guidance by distance and direction, a large arrow and a
 * centimetre view below a metre, green within the tolerance; corners marked found or lost with the
 * measured position, a photo through the outbox, and the results exported.
 */
export function StakeoutPage({ query }: { query: SketchQuery }) {
  const id = useId()
  const subject = useSubject(query)
  const position = usePosition(true)
  const [target, setTarget] = useState<Target | null>(null)
  const [tolerance, setTolerance] = useState<number>(DEFAULT_TOLERANCE_M)
  const { marks, add, clear } = useMarks()
  useWakeLock(true)

  const s = subject?.ok ? subject.subject : null
  const label = s ? `Thửa ${s.parcelNo ?? '?'}, tờ ${s.sheetNo ?? '?'}` : null
  const fix = position.fix
  const usable = position.status === 'live' || position.status === 'dropped'
  const g = target && fix ? guide(fix, target, tolerance) : null
  const meridian = s?.outline.meridian ?? (fix ? autoMeridian(fix.lat, fix.lng).meridian : 105.75)

  return (
    <Container size="sm" py="lg" w="100%" className="so-page">
      <Stack gap="md">
        <div>
          <Title order={1}>Cắm mốc{label ? ` — ${label}` : ''}</Title>
          <Text c="dimmed">Chọn một góc thửa hoặc nhập toạ độ VN-2000, rồi đi theo hướng dẫn tới đúng vị trí mốc.</Text>
        </div>
        <PositionStatusLine position={position} className="qh-pos-sticky" />
        <details className="so-gps">
          <summary>Nguồn định vị, máy thu và độ chính xác tối thiểu</summary>
          <GpsSettings position={position} />
        </details>
        {subject === undefined && (
          <Group gap="xs" role="status">
            <Loader size="sm" aria-hidden />
            <Text>Đang đọc ranh thửa…</Text>
          </Group>
        )}
        {subject && !subject.ok && (
          <Alert color="yellow" role="alert" title="Chưa có góc thửa trên máy">
            Thửa này chưa có trong lịch sử tra cứu hay khu vực đã lưu. Hãy tra cứu thửa trên bản đồ khi có mạng một lần,
            hoặc nhập toạ độ bên dưới.
            <div>
              <Button component={Link} to="/demo" variant="subtle" mt="xs">
                Về bản đồ
              </Button>
            </div>
          </Alert>
        )}
        {s && <CornerList outline={s.outline} target={target} onPick={setTarget} />}
        <details className="so-typed-box" open={!s && subject !== undefined}>
          <summary>Nhập toạ độ VN-2000</summary>
          <TypedTarget meridian={meridian} onPick={setTarget} />
        </details>
        <label className="so-field" htmlFor={`${id}-tol`}>
          <span>Dung sai (xanh khi trong phạm vi)</span>
          <select id={`${id}-tol`} value={tolerance} onChange={(e) => setTolerance(Number(e.currentTarget.value))}>
            {TOLERANCES_M.map((t) => (
              <option key={t} value={t}>
                {formatPrecise(t)}
              </option>
            ))}
          </select>
        </label>
        {target && (
          <>
            <Title order={2} size="h3" data-testid="stakeout-target">
              Đang dẫn tới {target.label}
            </Title>
            {g && usable ? (
              <GuidanceView g={g} toleranceM={tolerance} label={target.label} />
            ) : (
              <Alert color="red" data-testid="stakeout-no-guidance">
                {fix
                  ? 'Vị trí hiện tại không dùng được để dẫn đường (xem dòng trạng thái đỏ ở trên).'
                  : 'Đang chờ vị trí…'}
              </Alert>
            )}
            {g?.unsure && usable && (
              <Text size="sm" c="orange.9">
                Sai số vị trí lớn hơn dung sai {formatPrecise(tolerance)}: chưa xác nhận được đã tới mốc.
              </Text>
            )}
            <MarkPanel
              target={target}
              subject={label}
              parcelId={s?.parcelId ?? null}
              position={position}
              onMarked={add}
            />
          </>
        )}
        <MarksList marks={marks} onClear={clear} />
      </Stack>
    </Container>
  )
}
