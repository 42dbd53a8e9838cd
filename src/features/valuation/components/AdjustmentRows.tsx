import { Fragment } from 'react'
import { Badge, Table, Text, UnstyledButton } from '@mantine/core'
import type { Comparable } from '#core/contract/lookups.ts'
import { formatArea, formatDate, formatDistance, formatMoneyShort, formatVndPerM2 } from '../../../lib/format/format.ts'
import {
  adjustmentFormula,
  FACTOR_LABELS,
  FACTOR_ORDER,
  relationLabel,
  signedMoney,
  signedPercent,
  weightText,
} from '../adjustments.ts'
import { NUMBERED } from '../explain.ts'

type Props = { list: Comparable[]; selectedId: string | null; onSelect: (id: string) => void }

/** The selected sale's chain in words: each factor, why, its % and đ/m², and the product. */
function Detail({ c }: { c: Comparable }) {
  return (
    <Table.Tr className="adjustment-detail" data-testid="adjustment-detail">
      <Table.Td colSpan={FACTOR_ORDER.length + 5}>
        <div className="adjustment-detail-inner">
          <Text size="sm" fw={600}>
            Giá gốc {formatVndPerM2(c.vnd_per_m2)} ({formatMoneyShort(c.price_vnd)}, {formatArea(c.area_m2)}, cách{' '}
            {formatDistance(c.distance_m)})
          </Text>
          <ul className="adjustment-steps">
            {(c.adjustments ?? []).map((a) => (
              <li key={a.factor}>
                <span>
                  {FACTOR_LABELS[a.factor]}
                  {a.note ? `: ${a.note}` : ''}
                </span>
                <span className="num">
                  {signedPercent(a.pct)} · {signedMoney(a.vnd_per_m2)}
                </span>
              </li>
            ))}
          </ul>
          <Text size="sm" style={{ overflowWrap: 'anywhere' }}>
            {adjustmentFormula(c)}
          </Text>
        </div>
      </Table.Td>
    </Table.Tr>
  )
}

/** One row per comparable: raw price, each adjustment in %, the adjusted price and its weight. */
export function AdjustmentRows({ list, selectedId, onSelect }: Props) {
  return (
    <Table
      striped
      verticalSpacing={4}
      horizontalSpacing={6}
      fz="sm"
      data-testid="adjustments-table"
      className="adjustments-table"
    >
      <Table.Thead>
        <Table.Tr>
          <Table.Th>#</Table.Th>
          <Table.Th>Giao dịch</Table.Th>
          <Table.Th ta="right">Giá gốc/m²</Table.Th>
          {FACTOR_ORDER.map((f) => (
            <Table.Th key={f} ta="right" className="factor-col">
              {FACTOR_LABELS[f]}
            </Table.Th>
          ))}
          <Table.Th ta="right">Sau điều chỉnh</Table.Th>
          <Table.Th ta="right">Trọng số</Table.Th>
        </Table.Tr>
      </Table.Thead>
      <Table.Tbody>
        {list.map((c, i) => {
          const selected = c.id === selectedId
          const relation = relationLabel(c)
          return (
            <Fragment key={c.id}>
              <Table.Tr
                data-testid="comparable-row"
                data-selected={selected || undefined}
                aria-selected={selected}
                className="comparable-row"
              >
                <Table.Td>{i < NUMBERED ? i + 1 : ''}</Table.Td>
                <Table.Td className="comparable-sale">
                  <UnstyledButton
                    onClick={() => onSelect(c.id)}
                    aria-expanded={selected}
                    aria-label={`Giao dịch ${i + 1}, ngày ${formatDate(c.date)}: xem từng điều chỉnh`}
                    className="comparable-pick"
                  >
                    {formatDate(c.date)}
                    <Text span size="xs" c="dimmed" display="block">
                      {formatDistance(c.distance_m)} · {formatArea(c.area_m2)}
                    </Text>
                  </UnstyledButton>
                  {relation ? (
                    <Badge
                      size="xs"
                      tt="none"
                      color={c.repeat_sale ? 'grape' : 'indigo'}
                      variant="light"
                      styles={{ root: { overflow: 'visible' }, label: { overflow: 'visible' } }}
                      data-testid={c.repeat_sale ? 'repeat-sale' : undefined}
                    >
                      {relation}
                    </Badge>
                  ) : null}
                </Table.Td>
                <Table.Td ta="right" title={formatVndPerM2(c.vnd_per_m2)}>
                  {formatMoneyShort(c.vnd_per_m2)}
                </Table.Td>
                {FACTOR_ORDER.map((f) => {
                  const a = c.adjustments?.find((x) => x.factor === f)
                  return (
                    <Table.Td
                      key={f}
                      ta="right"
                      className={`factor-col${a && a.pct < 0 ? ' num-down' : a && a.pct > 0 ? ' num-up' : ''}`}
                    >
                      {a ? signedPercent(a.pct) : '—'}
                    </Table.Td>
                  )
                })}
                <Table.Td
                  ta="right"
                  fw={600}
                  title={c.adjusted_vnd_per_m2 !== undefined ? formatVndPerM2(c.adjusted_vnd_per_m2) : undefined}
                >
                  {c.adjusted_vnd_per_m2 !== undefined ? formatMoneyShort(c.adjusted_vnd_per_m2) : '—'}
                </Table.Td>
                <Table.Td ta="right">{c.weight !== undefined ? weightText(c.weight) : '—'}</Table.Td>
              </Table.Tr>
              {selected ? <Detail c={c} /> : null}
            </Fragment>
          )
        })}
      </Table.Tbody>
    </Table>
  )
}
