import '@mantine/core/styles/Input.css'
import '@mantine/core/styles/Table.css'
import '@mantine/core/styles/Alert.css'
import './compare.css'
import { useEffect, useState } from 'react'
import { Alert, Button, Container, Group, Loader, Stack, Text, Title } from '@mantine/core'
import { Link } from '@tanstack/react-router'
import { IconArrowLeft, IconWifiOff } from '@tabler/icons-react'
import type { CompareData, PlanChange } from '#core/contract/plans.ts'
import type { ApiResult } from '../../lib/api/index.ts'
import { formatLandArea } from '../../lib/format/format.ts'
import { useOnline } from '../../lib/use-online.ts'
import { fetchComparison } from './api.ts'
import { plannedAreaM2, planLabel, verdict, type CompareSearch } from './compare.ts'
import { ChangeList, ReserveList } from './components/ChangeList.tsx'
import { CompareDrawing } from './components/CompareDrawing.tsx'
import { PlanPicker } from './components/PlanPicker.tsx'

type State = { kind: 'loading' } | { kind: 'done'; result: ApiResult<CompareData> }

function useComparison(search: CompareSearch, attempt: number): State {
  const [state, setState] = useState<State>({ kind: 'loading' })
  const key = JSON.stringify(search)
  useEffect(() => {
    const ctrl = new AbortController()
    setState({ kind: 'loading' })
    fetchComparison(JSON.parse(key) as CompareSearch, ctrl.signal).then((result) => {
      if (!ctrl.signal.aborted) setState({ kind: 'done', result })
    })
    return () => ctrl.abort()
  }, [key, attempt])
  return state
}

/** Where the map opens on "Về bản đồ": the parcel's point, or the middle of the area. */
function mapTarget(search: CompareSearch): { lat: number; lng: number; z: number } | undefined {
  if (search.lat !== undefined && search.lng !== undefined) return { lat: search.lat, lng: search.lng, z: 18 }
  const [w, s, e, n] = (search.bbox ?? '').split(',').map(Number)
  if ([w, s, e, n].some((v) => v === undefined || !Number.isFinite(v))) return undefined
  return { lat: (s! + n!) / 2, lng: (w! + e!) / 2, z: 16 }
}

function Place({ data }: { data: CompareData }) {
  const { region } = data
  const p = region.parcel
  return (
    <Text data-testid="compare-place">
      {p
        ? `Thửa ${p.parcel_no}, tờ ${p.sheet_no}${p.address ? ` — ${p.address}` : ''}`
        : 'Khu vực đang xem trên bản đồ'}{' '}
      · {formatLandArea(region.area_m2)}
    </Text>
  )
}

function Comparison({ data, onChoose }: { data: CompareData; onChoose: (from: string, to: string) => void }) {
  const [picked, setPicked] = useState<PlanChange | null>(null)
  const { comparison, plans } = data
  const from = plans.find((p) => p.id === data.from)
  const to = plans.find((p) => p.id === data.to)
  const plannedM2 = plannedAreaM2(data)
  if (plans.length === 0) return <Alert color="gray">Chưa có đồ án quy hoạch nào ở đây trong dữ liệu.</Alert>
  return (
    <Stack gap="md">
      {plans.length >= 2 && (
        <PlanPicker key={`${data.from}-${data.to}`} plans={plans} from={data.from} to={data.to} onChoose={onChoose} />
      )}
      {!comparison ? (
        <Alert color="gray" data-testid="compare-single">
          {plans.length === 1
            ? `Ở đây chỉ có một đồ án: ${plans[0]!.name} (${planLabel(plans[0]!)}).`
            : 'Mỗi cấp quy hoạch ở đây chỉ có một phiên bản. Chọn hai đồ án ở trên để so sánh chúng.'}
        </Alert>
      ) : (
        <>
          <Text fw={600} data-testid="compare-verdict" role="status">
            {verdict(comparison, plannedM2)}
          </Text>
          <div className="qh-compare-drawings">
            <CompareDrawing
              region={data.region}
              pieces={comparison.pieces.from}
              title={from ? `Cũ: ${planLabel(from)}` : 'Đồ án cũ'}
              highlight={picked}
            />
            <CompareDrawing
              region={data.region}
              pieces={comparison.pieces.to}
              title={to ? `Mới: ${planLabel(to)}` : 'Đồ án mới'}
              highlight={picked}
            />
          </div>
          <Text size="xs" c="dimmed">
            Chọn một thay đổi để xem phần diện tích đó trên hai hình.
          </Text>
          <ChangeList comparison={comparison} plannedM2={plannedM2} picked={picked} onPick={setPicked} />
          <Title order={2} size="h4">
            Lộ giới
          </Title>
          <ReserveList reserves={comparison.road_reserves} />
          {(comparison.only_from_m2 > 0 || comparison.only_to_m2 > 0) && (
            <Text size="sm" data-testid="compare-coverage">
              {comparison.only_from_m2 > 0 && `Chỉ đồ án cũ phủ: ${formatLandArea(comparison.only_from_m2)}. `}
              {comparison.only_to_m2 > 0 && `Chỉ đồ án mới phủ: ${formatLandArea(comparison.only_to_m2)}.`}
            </Text>
          )}
          <Text size="sm" c="dimmed" data-testid="compare-basis">
            Không đổi: {formatLandArea(comparison.unchanged_m2)}. Tỷ lệ tính trên {formatLandArea(plannedM2)} cả hai đồ
            án cùng quy hoạch. Diện tích tính trên mặt cầu, phần nhỏ hơn 0,5 m² dọc ranh ô được bỏ qua.
          </Text>
        </>
      )}
    </Stack>
  )
}

/**
 * "So sánh": what changed between two versions of the planning in a parcel or the area on screen —
 * land use, density, floors, FAR per area in m², and the road reserves — drawn side by side.
 */
export function ComparePage({
  search,
  onChoose,
}: {
  search: CompareSearch
  onChoose: (from: string, to: string) => void
}) {
  const [attempt, setAttempt] = useState(0)
  const state = useComparison(search, attempt)
  const online = useOnline()
  const back = mapTarget(search)
  let body
  if (state.kind === 'loading')
    body = (
      <Group gap="sm" role="status">
        <Loader size="sm" /> Đang so sánh các đồ án…
      </Group>
    )
  else if (state.result.ok) body = <Comparison data={state.result.data} onChoose={onChoose} />
  else if (state.result.code === 'Offline' || state.result.code === 'Network' || !online)
    body = (
      <Alert
        color="orange"
        icon={<IconWifiOff size={20} aria-hidden />}
        title="Cần kết nối mạng"
        data-testid="compare-offline"
      >
        So sánh hai đồ án được tính trên máy chủ. Kết quả tra cứu đã lưu vẫn xem được trên bản đồ khi không có mạng.
        <Group mt="sm">
          <Button variant="light" onClick={() => setAttempt((n) => n + 1)} disabled={!online}>
            Thử lại
          </Button>
        </Group>
      </Alert>
    )
  else
    body = (
      <Alert color={state.result.code === 'NotFound' ? 'yellow' : 'red'} data-testid="compare-error">
        {state.result.message}
        {state.result.code !== 'NotFound' && state.result.code !== 'BadRequest' && (
          <Group mt="sm">
            <Button variant="light" onClick={() => setAttempt((n) => n + 1)}>
              Thử lại
            </Button>
          </Group>
        )}
      </Alert>
    )
  return (
    <Container size="lg" py="md" className="qh-compare">
      <Group justify="space-between" align="center" wrap="wrap" mb="xs">
        <Title order={1} size="h2">
          So sánh quy hoạch
        </Title>
        {back && (
          <Button
            variant="subtle"
            renderRoot={(props) => <Link to="/demo" search={back} {...props} />}
            leftSection={<IconArrowLeft size={18} aria-hidden />}
          >
            Về bản đồ
          </Button>
        )}
      </Group>
      {state.kind === 'done' && state.result.ok && <Place data={state.result.data} />}
      <div className="qh-compare-body">{body}</div>
    </Container>
  )
}
