import { lazy, Suspense, useState } from 'react'
import { useAtomValue, useStore } from 'jotai'
import { Alert, Badge, Button, Group, Loader, Paper, Progress, SimpleGrid, Stack, Table, Text, Title } from '@mantine/core'
import { IconAlertTriangle, IconInfoCircle, IconPrinter, IconShare } from '@tabler/icons-react'
import { errorTexts } from '../../../lib/errors.ts'
import {
  formatArea,
  formatDate,
  formatDateTime,
  formatDistance,
  formatMoneyShort,
  formatNumber,
  formatPercent,
  formatVndPerM2,
} from '../../../lib/format/format.ts'
import { isSessionValid, sessionAtom } from '../../auth/atoms.ts'
import { pushToast } from '../../notifications/toast.ts'
import { remaining, usageAtom } from '../../usage/atoms.ts'
import type { ShownResult } from '../atoms.ts'
import { confidenceWords, DISCLAIMER, NUMBERED, planningSummary, positionReason } from '../explain.ts'
import type { ValuationRecord } from '../record.ts'
import { shareValuation } from '../share.ts'

// OpenLayers is big: the map loads in its own chunk once there is something to show on it.
const ComparablesMap = lazy(() => import('./ComparablesMap.tsx'))

function MarketCard({ record }: { record: ValuationRecord }) {
  const m = record.data.market_estimate
  if (!m) {
    return (
      <Alert color="yellow" variant="light" icon={<IconAlertTriangle size={20} aria-hidden />} title="Giá thị trường">
        {errorTexts.EMPTY_VALUATION}
      </Alert>
    )
  }
  const words = confidenceWords(m.confidence)
  return (
    <Paper withBorder p="md" component="section" aria-labelledby="market-title" data-testid="market-estimate">
      <Stack gap="xs">
        <Title order={3} size="h5" id="market-title">
          Giá thị trường ước tính
        </Title>
        <Text className="price-mid" data-testid="market-mid">
          {formatMoneyShort(m.mid_vnd)}
        </Text>
        <div className="price-range" data-testid="market-range" aria-label={`Khoảng giá từ ${formatMoneyShort(m.low_vnd)} đến ${formatMoneyShort(m.high_vnd)}, giữa ${formatMoneyShort(m.mid_vnd)}`}>
          <div>
            <Text size="xs" c="dimmed">
              Thấp
            </Text>
            <Text fw={600}>{formatMoneyShort(m.low_vnd)}</Text>
          </div>
          <span aria-hidden>–</span>
          <div>
            <Text size="xs" c="dimmed">
              Giữa
            </Text>
            <Text fw={600}>{formatMoneyShort(m.mid_vnd)}</Text>
          </div>
          <span aria-hidden>–</span>
          <div>
            <Text size="xs" c="dimmed">
              Cao
            </Text>
            <Text fw={600}>{formatMoneyShort(m.high_vnd)}</Text>
          </div>
        </div>
        <Text>
          Đơn giá: <strong>{formatVndPerM2(m.vnd_per_m2)}</strong>
        </Text>
        <div>
          <Group justify="space-between" gap="xs">
            <Text size="sm">
              Độ tin cậy: <strong>{words}</strong>
            </Text>
            <Text size="sm" c="dimmed">
              {formatPercent(m.confidence)}
            </Text>
          </Group>
          <Progress value={m.confidence * 100} color={m.confidence >= 0.5 ? 'teal' : 'orange'} aria-label={`Độ tin cậy ${words}, ${formatPercent(m.confidence)}`} />
        </div>
        <Text size="sm">{m.method}</Text>
        <Text size="xs" c="dimmed">
          Tính đến ngày {formatDate(m.as_of)}
        </Text>
      </Stack>
    </Paper>
  )
}

function StatePriceCard({ record }: { record: ValuationRecord }) {
  const s = record.data.state_price
  return (
    <Paper withBorder p="md" component="section" aria-labelledby="state-title" data-testid="state-price">
      <Stack gap="xs">
        <Title order={3} size="h5" id="state-title">
          Giá đất nhà nước {s ? s.year : ''}
        </Title>
        {s ? (
          <>
            <Group gap="xs" align="center">
              <Text className="price-mid">{formatVndPerM2(s.price_vnd_per_m2)}</Text>
              <Badge size="lg" variant="filled" data-testid="state-position">
                {s.position}
              </Badge>
            </Group>
            <Text size="sm">
              <strong>{s.street}</strong>
              {s.segment ? ` — ${s.segment}` : ''}
            </Text>
            <Text size="sm">{positionReason(s.position, s.street, record.facts.alley_width_m)}</Text>
            {record.facts.area_m2 ?? record.data.parcel.area_m2 ? (
              <Text size="sm" c="dimmed">
                Theo bảng giá, {formatArea(record.facts.area_m2 ?? record.data.parcel.area_m2)} ≈ {formatMoneyShort(s.price_vnd_per_m2 * (record.facts.area_m2 ?? record.data.parcel.area_m2))}
              </Text>
            ) : null}
            <Text size="xs" c="dimmed">
              Nguồn: {s.source}
            </Text>
          </>
        ) : (
          <Text size="sm">Bảng giá chưa có dòng giá cho tuyến đường của thửa này.</Text>
        )}
      </Stack>
    </Paper>
  )
}

function PlanningCard({ record, error }: { record: ValuationRecord; error: string | null }) {
  const p = record.planning
  const summary = p ? planningSummary(p.data) : null
  const zone = p?.data.zones[0]
  return (
    <Paper withBorder p="md" component="section" aria-labelledby="planning-title" data-testid="planning">
      <Stack gap="xs">
        <Title order={3} size="h5" id="planning-title">
          Quy hoạch
        </Title>
        {summary ? (
          <>
            <Alert color={summary.affected ? 'orange' : 'teal'} variant="light" p="xs">
              <Text size="sm" fw={600}>
                {summary.text}
              </Text>
            </Alert>
            {zone ? (
              <Text size="sm">
                {zone.plan_name} ({zone.plan_level}), QĐ {zone.decision_no} ngày {formatDate(zone.approved_at)}
                {zone.max_density_pct !== null ? ` · mật độ tối đa ${formatNumber(zone.max_density_pct)}%` : ''}
                {zone.max_floors !== null ? ` · tối đa ${zone.max_floors} tầng` : ''}
                {zone.max_far !== null ? ` · hệ số sử dụng đất ${formatNumber(zone.max_far, 1)}` : ''}
              </Text>
            ) : null}
            <Text size="xs" c="dimmed">
              Tra quy hoạch lúc {formatDateTime(p!.at)} · {p!.data.source.name}
            </Text>
          </>
        ) : (
          <Text size="sm">{error ?? 'Chưa có thông tin quy hoạch cho thửa này.'}</Text>
        )}
      </Stack>
    </Paper>
  )
}

function ComparablesCard({ record, onSnapshot }: { record: ValuationRecord; onSnapshot: (png: string | null) => void }) {
  const [all, setAll] = useState(false)
  const list = record.data.comparables
  if (list.length === 0) return null
  const shown = all ? list : list.slice(0, NUMBERED)
  return (
    <Paper withBorder p="md" component="section" aria-labelledby="comparables-title" data-testid="comparables">
      <Stack gap="xs">
        <Title order={3} size="h5" id="comparables-title">
          Giao dịch so sánh ({list.length})
        </Title>
        <Suspense fallback={<Loader aria-label="Đang tải bản đồ" />}>
          <ComparablesMap data={record.data} onSnapshot={onSnapshot} />
        </Suspense>
        <Text size="xs" c="dimmed">
          <span className="legend-dot" style={{ background: '#dc2626' }} /> thửa đang định giá · <span className="legend-dot" style={{ background: '#c2410c' }} /> bán cao hơn
          đơn giá ước tính · <span className="legend-dot" style={{ background: '#0369a1' }} /> thấp hơn
        </Text>
        <Table.ScrollContainer minWidth={320}>
          <Table striped verticalSpacing={4} fz="sm">
            <Table.Thead>
              <Table.Tr>
                <Table.Th>#</Table.Th>
                <Table.Th>Ngày</Table.Th>
                <Table.Th ta="right">Đơn giá</Table.Th>
                <Table.Th ta="right">Diện tích</Table.Th>
                <Table.Th ta="right">Cách</Table.Th>
              </Table.Tr>
            </Table.Thead>
            <Table.Tbody>
              {shown.map((c, i) => (
                <Table.Tr key={c.id} data-testid="comparable-row">
                  <Table.Td>{i < NUMBERED ? i + 1 : ''}</Table.Td>
                  <Table.Td>{formatDate(c.date)}</Table.Td>
                  <Table.Td ta="right" title={formatVndPerM2(c.vnd_per_m2)}>
                    {formatMoneyShort(c.vnd_per_m2)}/m²
                  </Table.Td>
                  <Table.Td ta="right">{formatArea(c.area_m2)}</Table.Td>
                  <Table.Td ta="right">{formatDistance(c.distance_m)}</Table.Td>
                </Table.Tr>
              ))}
            </Table.Tbody>
          </Table>
        </Table.ScrollContainer>
        {list.length > NUMBERED ? (
          <Group>
            <Button variant="subtle" size="compact-sm" onClick={() => setAll((a) => !a)}>
              {all ? `Chỉ xem ${NUMBERED} giao dịch gần nhất` : `Xem cả ${list.length} giao dịch`}
            </Button>
          </Group>
        ) : null}
      </Stack>
    </Paper>
  )
}

/** The valuation result on screen: market range, state price, planning, comparables, sources. */
export function ResultView({ shown, planningError, onSnapshot }: { shown: ShownResult; planningError: string | null; onSnapshot: (png: string | null) => void }) {
  const { record } = shown
  const store = useStore()
  const usage = useAtomValue(usageAtom)
  const session = useAtomValue(sessionAtom)
  const d = record.data

  async function share() {
    const how = await shareValuation(record)
    if (how === 'copied') pushToast(store, 'success', 'Đã sao chép liên kết và tóm tắt kết quả.')
    if (how === 'failed') pushToast(store, 'error', 'Không chia sẻ được trên thiết bị này.')
  }

  return (
    <Stack gap="md" component="section" aria-labelledby="result-title" data-testid="valuation-result">
      <div>
        <Title order={2} size="h3" id="result-title">
          Kết quả định giá
        </Title>
        <Text fw={600}>{record.place.label}</Text>
        <Text size="sm" c="dimmed">
          {[d.parcel.ward, d.parcel.district, d.parcel.province].filter(Boolean).join(', ')} · {formatArea(d.parcel.area_m2)} ·{' '}
          {d.parcel.land_use.map((u) => `${u.name} (${u.code})`).join(', ')}
        </Text>
        <Text size="sm" c="dimmed">
          VN-2000 (KTT {formatNumber(d.location.vn2000.zone_meridian, 2)}°): X (bắc) {formatNumber(d.location.vn2000.x, 2)} m · Y (đông) {formatNumber(d.location.vn2000.y, 2)} m
        </Text>
        <Text size="sm" c={shown.stored ? 'orange' : 'dimmed'}>
          {shown.stored ? `Kết quả lưu lúc ${formatDateTime(shown.at)} (không tính thêm lượt)` : `Định giá lúc ${formatDateTime(shown.at)}`}
        </Text>
      </div>
      <SimpleGrid cols={{ base: 1, sm: 2 }} spacing="md">
        <MarketCard record={record} />
        <StatePriceCard record={record} />
      </SimpleGrid>
      <PlanningCard record={record} error={planningError} />
      <ComparablesCard record={record} onSnapshot={onSnapshot} />
      <Alert color="gray" variant="light" icon={<IconInfoCircle size={20} aria-hidden />} data-testid="disclaimer">
        <Text size="sm">{DISCLAIMER}</Text>
        <Text size="xs" c="dimmed" mt={4}>
          Nguồn dữ liệu: {d.source.name}, cập nhật {formatDate(d.source.data_date)}
          {d.state_price ? ` · ${d.state_price.source}` : ''}
        </Text>
      </Alert>
      {isSessionValid(session) && usage.limit > 0 && !shown.stored ? (
        <Text size="sm" data-testid="usage-after">
          Đã dùng {usage.count}/{usage.limit} lượt tra cứu hôm nay, còn {remaining(usage)} lượt.
        </Text>
      ) : null}
      <Group className="no-print">
        <Button leftSection={<IconPrinter size={20} aria-hidden />} onClick={() => window.print()}>
          In báo cáo
        </Button>
        <Button variant="light" leftSection={<IconShare size={20} aria-hidden />} onClick={() => void share()}>
          Chia sẻ
        </Button>
      </Group>
    </Stack>
  )
}
