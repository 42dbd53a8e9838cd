import { useAtomValue, useStore } from 'jotai'
import { Alert, Badge, Button, Group, Paper, SimpleGrid, Stack, Text, Title } from '@mantine/core'
import { IconInfoCircle, IconPrinter, IconShare } from '@tabler/icons-react'
import { landUseLine } from '#core/planning/land-use.ts'
import {
  formatArea,
  formatDate,
  formatDateTime,
  formatMeridian,
  formatMoneyShort,
  formatNumber,
  formatVndPerM2,
} from '../../../lib/format/format.ts'
import { isSessionValid, sessionAtom } from '../../auth/index.ts'
import { pushToast } from '../../notifications/index.ts'
import { remaining, usageAtom } from '../../usage/index.ts'
import type { ShownResult } from '../atoms.ts'
import { DISCLAIMER, planningSummary, positionReason } from '../explain.ts'
import type { ValuationRecord } from '../../../lib/valuation-record.ts'
import { shareValuation } from '../share.ts'
import { ComparablesCard } from './ComparablesCard.tsx'
import { MarketCard } from './MarketCard.tsx'
import { StatePriceRow, tableLine } from './StatePriceRow.tsx'

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
            <StatePriceRow s={s} />
            <Text size="sm">{positionReason(s.position, s.street, record.facts.alley_width_m)}</Text>
            {(record.facts.area_m2 ?? record.data.parcel.area_m2) ? (
              <Text size="sm" c="dimmed">
                Theo bảng giá, {formatArea(record.facts.area_m2 ?? record.data.parcel.area_m2)} ≈{' '}
                {formatMoneyShort(s.price_vnd_per_m2 * (record.facts.area_m2 ?? record.data.parcel.area_m2))}
              </Text>
            ) : null}
            <Text size="xs" c="dimmed">
              Nguồn: {s.source}
              {tableLine(s) ? ` · ${tableLine(s)}` : ''}
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

/** The valuation result on screen: market range, state price, planning, comparables, sources. */
export function ResultView({
  shown,
  planningError,
  onSnapshot,
}: {
  shown: ShownResult
  planningError: string | null
  onSnapshot: (png: string | null) => void
}) {
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
          {[d.parcel.ward, d.parcel.district, d.parcel.province].filter(Boolean).join(', ')} ·{' '}
          {formatArea(d.parcel.area_m2)} · {landUseLine(d.parcel.land_use)}
        </Text>
        <Text size="sm" c="dimmed">
          VN-2000 (KTT {formatMeridian(d.location.vn2000.zone_meridian)}): X (bắc){' '}
          {formatNumber(d.location.vn2000.x, 2)} m · Y (đông) {formatNumber(d.location.vn2000.y, 2)} m
        </Text>
        <Text size="sm" c={shown.stored ? 'orange' : 'dimmed'}>
          {shown.stored
            ? `Kết quả lưu lúc ${formatDateTime(shown.at)} (không tính thêm lượt)`
            : `Định giá lúc ${formatDateTime(shown.at)}`}
        </Text>
      </div>
      <SimpleGrid cols={{ base: 1, sm: 2 }} spacing="md">
        <MarketCard record={record} />
        <StatePriceCard record={record} />
      </SimpleGrid>
      <PlanningCard record={record} error={planningError} />
      <ComparablesCard record={record} onSnapshot={onSnapshot} />
      <Alert color="gray" variant="light" icon={<IconInfoCircle size={20} aria-hidden />} data-testid="disclaimer">
        <Text size="sm">{d.disclaimer ?? DISCLAIMER}</Text>
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
