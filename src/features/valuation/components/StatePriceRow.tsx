import { Table, Text } from '@mantine/core'
import type { ValuationData } from '#core/contract/lookups.ts'
import { formatDate, formatMoneyShort, formatNumber, formatVndPerM2 } from '../../../lib/format/format.ts'

type StatePrice = NonNullable<ValuationData['state_price']>
const POSITIONS = ['VT1', 'VT2', 'VT3', 'VT4'] as const

/**
 * "QĐ 79/2024/QĐ-UBND, áp dụng từ 31/10/2024": the table a state price was read from. The decision is left
 * out when the source already names it ("Quyết định 79/2024/QĐ-UBND"), so the line does not say it twice.
 */
export function tableLine(s: StatePrice): string {
  const parts = [
    s.decision_no && !s.source.includes(s.decision_no) ? `QĐ ${s.decision_no}` : null,
    s.effective_from ? `áp dụng từ ${formatDate(s.effective_from)}` : null,
  ]
  return parts.filter(Boolean).join(', ')
}

/**
 * The price row used, as the table publishes it: VT1–VT4 with the parcel's position marked (a position
 * the table lists no price for shows the parcel's own derived price, or "—"), the segment, the district
 * sheet, and how the row was chosen when that needs saying.
 */
export function StatePriceRow({ s, compact = false }: { s: StatePrice; compact?: boolean }) {
  const prices = s.prices
  return (
    <div data-testid="state-price-row">
      {prices ? (
        <Table
          withTableBorder
          withColumnBorders
          fz={compact ? 'xs' : 'sm'}
          className="vt-row"
          aria-label="Giá theo vị trí VT1–VT4"
        >
          <Table.Thead>
            <Table.Tr>
              {POSITIONS.map((p) => (
                <Table.Th key={p} ta="center" data-marked={p === s.position || undefined}>
                  {p === s.position ? `${p} (thửa này)` : p}
                </Table.Th>
              ))}
            </Table.Tr>
          </Table.Thead>
          <Table.Tbody>
            <Table.Tr>
              {POSITIONS.map((p) => {
                const v = prices[p] ?? (p === s.position ? s.price_vnd_per_m2 : null)
                return (
                  <Table.Td
                    key={p}
                    ta="center"
                    fw={p === s.position ? 700 : undefined}
                    data-marked={p === s.position || undefined}
                  >
                    {v === null ? '—' : formatMoneyShort(v)}
                  </Table.Td>
                )
              })}
            </Table.Tr>
          </Table.Tbody>
        </Table>
      ) : null}
      <Text size="sm" mt={4}>
        <strong>{s.street}</strong>
        {s.segment ? ` — ${s.segment}` : ''}
        {s.district ? ` (${s.district})` : ''}
      </Text>
      {s.k_coefficient !== null && s.k_coefficient !== undefined && s.adjusted_vnd_per_m2 ? (
        <Text size="sm" data-testid="state-price-k">
          Hệ số điều chỉnh giá đất K = {formatNumber(s.k_coefficient, 2)}: {formatVndPerM2(s.adjusted_vnd_per_m2)}
        </Text>
      ) : null}
      {s.note ? (
        // In the text's own colour beside an orange bar: orange letters on white or on the dark theme read
        // below 4.5:1, and this says the price row itself may be the wrong one.
        <Text size="sm" className="state-price-note" role="note" data-testid="state-price-note">
          <strong>Lưu ý:</strong> {s.note}
        </Text>
      ) : null}
    </div>
  )
}
