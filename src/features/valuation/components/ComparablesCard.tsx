import { lazy, Suspense, useState } from 'react'
import { Button, Group, Loader, Paper, Stack, Table, Text, Title } from '@mantine/core'
import { formatMoneyShort } from '../../../lib/format/format.ts'
import { hasAdjustments } from '../adjustments.ts'
import { NUMBERED } from '../explain.ts'
import type { ValuationRecord } from '../../../lib/valuation-record.ts'
import { AdjustedChart } from './AdjustedChart.tsx'
import { AdjustmentRows } from './AdjustmentRows.tsx'

// OpenLayers is big: the map loads in its own chunk once there is something to show on it.
const ComparablesMap = lazy(() => import('./ComparablesMap.tsx'))

/** The area the estimate was computed for: the typed one when given, else the parcel's. */
function targetArea(record: ValuationRecord): number {
  const typed = record.data.market_estimate?.inputs?.find((i) => i.field === 'area_m2')?.value
  return typed ?? record.facts.area_m2 ?? record.data.parcel.area_m2
}

/**
 * The evidence: the sales on a map and on a price axis, and per sale every adjustment to this parcel.
 * Choosing a sale in the table, on the chart or on the map highlights it in all three.
 */
export function ComparablesCard({
  record,
  onSnapshot,
}: {
  record: ValuationRecord
  onSnapshot: (png: string | null) => void
}) {
  const [all, setAll] = useState(false)
  const [selectedId, setSelectedId] = useState<string | null>(null)
  const list = record.data.comparables
  const m = record.data.market_estimate
  if (list.length === 0) return null
  const shown = all ? list : list.slice(0, NUMBERED)
  const select = (id: string) => {
    setSelectedId((current) => (current === id ? null : id))
    // A sale chosen on the chart or map may sit below the shown rows: show them all.
    if (list.findIndex((c) => c.id === id) >= NUMBERED) setAll(true)
  }
  const area = targetArea(record)
  return (
    <Paper withBorder p="md" component="section" aria-labelledby="comparables-title" data-testid="comparables">
      <Stack gap="xs">
        <Title order={3} size="h5" id="comparables-title">
          Giao dịch so sánh ({list.length})
        </Title>
        <Suspense fallback={<Loader aria-label="Đang tải bản đồ" />}>
          <ComparablesMap data={record.data} onSnapshot={onSnapshot} selectedId={selectedId} onSelect={select} />
        </Suspense>
        <Text size="xs" c="dimmed">
          <span className="legend-dot" style={{ background: '#dc2626' }} /> thửa đang định giá ·{' '}
          <span className="legend-dot" style={{ background: '#c2410c' }} /> sau điều chỉnh cao hơn ước tính ·{' '}
          <span className="legend-dot" style={{ background: '#0369a1' }} /> thấp hơn ·{' '}
          <span className="legend-dot legend-diamond" style={{ background: '#7e22ce' }} /> chính thửa này bán trước đây
        </Text>
        {m && hasAdjustments(record.data) ? (
          <>
            <Text size="sm">
              Mỗi giao dịch được đưa về điều kiện của thửa này; ước tính là trung vị có trọng số của giá sau điều chỉnh.
              Chạm vào một giao dịch để xem từng bước.
            </Text>
            <AdjustedChart
              comparables={list}
              estimate={{ perM2: m.vnd_per_m2, lowPerM2: m.low_vnd / area, highPerM2: m.high_vnd / area }}
              selectedId={selectedId}
              onSelect={select}
            />
            <Table.ScrollContainer minWidth={760}>
              <AdjustmentRows list={shown} selectedId={selectedId} onSelect={select} />
            </Table.ScrollContainer>
          </>
        ) : (
          <Text size="sm" c="dimmed">
            Kết quả lưu từ phiên bản trước: chưa có chi tiết điều chỉnh. Định giá lại để xem. Đơn giá các giao dịch:{' '}
            {shown.map((c) => formatMoneyShort(c.vnd_per_m2)).join(', ')}.
          </Text>
        )}
        {list.length > NUMBERED ? (
          <Group>
            <Button variant="subtle" size="compact-sm" onClick={() => setAll((a) => !a)}>
              {all ? `Chỉ xem ${NUMBERED} giao dịch đầu` : `Xem cả ${list.length} giao dịch`}
            </Button>
          </Group>
        ) : null}
      </Stack>
    </Paper>
  )
}
