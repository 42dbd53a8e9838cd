import { Fragment, lazy, Suspense } from 'react'
import { useAtom } from 'jotai'
import { Alert, Button, Group, Loader, Text } from '@mantine/core'
import { IconBell, IconSearch, IconWifiOff } from '@tabler/icons-react'
import { formatDate, formatDateTime } from '../../../lib/format/format.ts'
import { formatDecimal } from '../../../lib/geo/coordinates.ts'
import { useOnline } from '../../../lib/use-online.ts'
import { ResultPanel } from '../components/ResultPanel.tsx'
import type { Point } from '../../../lib/map-url.ts'
import type { OfflineTap, TileFacts } from './offline-tap.ts'
import { saveReminderAtom } from './save-reminder.ts'

/** Offline outside every saved area: says so, and offers to save the area once the device is online. */
function NotSavedNote({ point }: { point: Point }) {
  const [reminder, setReminder] = useAtom(saveReminderAtom)
  const reminded = reminder !== null && reminder.lat === point.lat && reminder.lng === point.lng
  return (
    <Alert color="orange" variant="light" p="xs" mb="xs" data-testid="offline-not-saved">
      <Text size="sm" fw={600}>
        Khu vực này chưa được lưu để dùng offline
      </Text>
      {reminded ? (
        <Text size="sm" role="status">
          Khi có mạng, bản đồ sẽ đề nghị lưu khu vực này.
        </Text>
      ) : (
        <Button
          mt={6}
          size="xs"
          variant="default"
          leftSection={<IconBell size={16} aria-hidden />}
          onClick={() => setReminder({ ...point, zoom: 17 })}
        >
          Nhắc tôi lưu khu vực này khi có mạng
        </Button>
      )}
    </Alert>
  )
}

const ResultCard = lazy(() => import('../components/ResultCard.tsx'))

function LookupButton({
  point,
  onLookup,
  again = false,
}: {
  point: Point
  onLookup: (p: Point) => void
  again?: boolean
}) {
  const online = useOnline()
  const what = again ? 'Làm mới' : 'Tra cứu đầy đủ'
  return (
    <Button
      mt="sm"
      leftSection={<IconSearch size={18} aria-hidden />}
      disabled={!online}
      onClick={() => onLookup(point)}
      data-testid="offline-full-lookup"
    >
      {online ? `${what} (tính 1 lượt)` : `${what} khi có mạng`}
    </Button>
  )
}

function TileFactsCard({ facts, point, onLookup }: { facts: TileFacts; point: Point; onLookup: (p: Point) => void }) {
  const p = facts.parcel
  // The zones come governing first; the rest of its level are older versions, the others higher-level plans.
  const governingLevel = facts.zones[0]?.level
  const label = (z: TileFacts['zones'][number]) =>
    z.replacedBy
      ? `Đồ án cũ, thay thế bởi QĐ ${z.replacedBy.decision_no} ngày ${formatDate(z.replacedBy.approved_at)}`
      : z.level === governingLevel
        ? 'Ô quy hoạch đang áp dụng'
        : 'Quy hoạch cấp trên'
  return (
    <article className="qh-result" data-testid="offline-tile-result">
      <Group gap={6} mb={4}>
        <IconWifiOff size={18} aria-hidden />
        <Text size="sm" fw={700} c="orange">
          Ngoại tuyến — đọc từ bản đồ đã lưu trên máy
        </Text>
      </Group>
      <h2 data-testid="offline-parcel-title">
        {p && p.sheetNo !== null && p.parcelNo !== null
          ? `Tờ ${p.sheetNo}, thửa ${p.parcelNo}`
          : p || facts.zones.length === 0
            ? 'Thửa đất chưa rõ'
            : 'Quy hoạch tại điểm đã chọn'}
      </h2>
      <dl>
        {p?.landUse ? (
          <>
            <dt>Mục đích sử dụng chính</dt>
            <dd>{p.landUse}</dd>
          </>
        ) : null}
        {facts.zones.map((z, i) => (
          <Fragment key={`${z.code}-${i}`}>
            <dt>
              {label(z)} {z.level ? `(${z.level})` : ''}
            </dt>
            <dd data-testid="offline-zone">
              <span
                className="qh-swatch"
                style={{ background: z.color, display: 'inline-block', verticalAlign: '-3px' }}
                aria-hidden
              />{' '}
              {z.code}
              {z.block ? `, ký hiệu ${z.block}` : ''}
              {z.maxFloors !== null ? `, tối đa ${z.maxFloors} tầng` : ''}
              {z.maxDensityPct !== null ? `, mật độ ${z.maxDensityPct}%` : ''}
              {z.decision ? `; QĐ ${z.decision.decision_no} ngày ${formatDate(z.decision.approved_at)}` : ''}
            </dd>
          </Fragment>
        ))}
      </dl>
      <Text size="sm" c="dimmed" mt="xs">
        Vị trí {formatDecimal(point)}. Diện tích, lộ giới và tên đồ án có trong kết quả tra cứu đầy đủ, khi có mạng.
      </Text>
      <LookupButton point={point} onLookup={onLookup} />
    </article>
  )
}

/**
 * The answer to a tap made offline, in the map's own result panel: a stored result marked with its
 * time, the saved tiles' facts marked offline, or "cần kết nối".
 */
export default function OfflineTapPanel(props: {
  tap: OfflineTap
  desktop: boolean
  shareUrl: string
  onCover: (px: number) => void
  onLookup: (p: Point) => void
}) {
  const { state, close } = props.tap
  if (!state) return null
  const lookup = (p: Point) => {
    close()
    props.onLookup(p)
  }
  return (
    <ResultPanel
      mode={props.desktop ? 'side' : 'sheet'}
      label="Kết quả đã lưu trên máy"
      onCover={props.onCover}
      onClose={close}
    >
      {state.kind === 'stored' ? (
        <>
          <Alert color="yellow" variant="light" p="xs" className="offline-result-note" data-testid="stored-result-note">
            Kết quả lưu lúc {formatDateTime(state.at)} — xem lại không tính lượt. Dữ liệu có thể đã thay đổi từ đó.
          </Alert>
          <Suspense fallback={<Loader size="sm" aria-label="Đang tải" />}>
            <ResultCard
              selection={{ point: state.point, status: 'ready', result: state.data }}
              shareUrl={props.shareUrl}
              onLookup={() => lookup(state.point)}
            />
          </Suspense>
          <LookupButton point={state.point} onLookup={lookup} again />
        </>
      ) : state.kind === 'tiles' ? (
        <>
          {state.saved ? null : <NotSavedNote point={state.point} />}
          <TileFactsCard facts={state.facts} point={state.point} onLookup={lookup} />
        </>
      ) : (
        <div className="qh-result" data-testid="offline-no-result">
          {state.saved ? null : <NotSavedNote point={state.point} />}
          <h2>Cần kết nối</h2>
          <Text size="sm" my="xs">
            Chưa có kết quả nào đã lưu cho điểm {formatDecimal(state.point)}. Tra cứu thông tin thửa đất cần kết nối
            mạng.
          </Text>
          <LookupButton point={state.point} onLookup={lookup} />
        </div>
      )}
    </ResultPanel>
  )
}
