import { Table, Text } from '@mantine/core'
import { compareFields, type PlanChange, type PlanComparison } from '#core/contract/plans.ts'
import { formatLandArea, formatNumber } from '../../../lib/format/format.ts'
import { changedAreaByField, direction, FIELD_LABELS, shareText, valueText } from '../compare.ts'

type Props = {
  comparison: PlanComparison
  /** m² both plans cover: the changes' shares are of it. */
  plannedM2: number
  picked: PlanChange | null
  onPick: (c: PlanChange | null) => void
}

const ARROW = { up: ' ↑', down: ' ↓' } as const

/**
 * The changes grouped by field, each group headed by the field and the area it changed in; a row is
 * one old → new value with its area and share of the land both plans cover, and picking it outlines that area on the
 * drawings.
 */
export function ChangeList({ comparison, plannedM2, picked, onPick }: Props) {
  const { changes } = comparison
  if (changes.length === 0)
    return (
      <Text data-testid="compare-no-changes">
        Không có thay đổi về chức năng, mật độ, tầng cao hay hệ số sử dụng đất.
      </Text>
    )
  const byField = changedAreaByField(comparison)
  const share = (m2: number) => (plannedM2 > 0 ? ` (${shareText(m2, plannedM2)})` : '')
  return (
    <Table className="qh-compare-table" data-testid="compare-changes">
      <Table.Thead>
        <Table.Tr>
          <Table.Th scope="col">Đồ án cũ → đồ án mới</Table.Th>
          <Table.Th scope="col" ta="right">
            Diện tích
          </Table.Th>
        </Table.Tr>
      </Table.Thead>
      {compareFields
        .filter((f) => byField[f] > 0)
        .map((field) => (
          <Table.Tbody key={field} data-field={field}>
            <Table.Tr className="qh-compare-group">
              <Table.Th scope="rowgroup">{FIELD_LABELS[field]}</Table.Th>
              <Table.Th ta="right">
                {formatLandArea(byField[field])}
                {share(byField[field])}
              </Table.Th>
            </Table.Tr>
            {changes
              .filter((c) => c.field === field)
              .map((c, i) => {
                const on = picked === c
                const dir = direction(c)
                return (
                  <Table.Tr key={i} data-picked={on} data-testid="compare-change">
                    <Table.Td>
                      <button
                        type="button"
                        className="qh-compare-pick"
                        aria-pressed={on}
                        onClick={() => onPick(on ? null : c)}
                      >
                        {valueText(c.field, c.from, c.from_name)} → <b>{valueText(c.field, c.to, c.to_name)}</b>
                        {dir ? ARROW[dir] : ''}
                      </button>
                    </Table.Td>
                    <Table.Td ta="right">
                      {formatLandArea(c.area_m2)}
                      <Text span size="xs" c="dimmed">
                        {share(c.area_m2)}
                      </Text>
                    </Table.Td>
                  </Table.Tr>
                )
              })}
          </Table.Tbody>
        ))}
    </Table>
  )
}

const width = (w: number | null) => (w === null ? 'không có' : `${formatNumber(w, 1)} m`)

/** The road reserves (lộ giới) of either plan in the place: width in each, land newly taken and freed. */
export function ReserveList({ reserves }: { reserves: PlanComparison['road_reserves'] }) {
  if (reserves.length === 0) return <Text data-testid="compare-no-reserves">Lộ giới không thay đổi ở đây.</Text>
  return (
    <Table className="qh-compare-table" data-testid="compare-reserves" striped>
      <Table.Thead>
        <Table.Tr>
          <Table.Th scope="col">Đường</Table.Th>
          <Table.Th scope="col">Lộ giới cũ → mới</Table.Th>
          <Table.Th scope="col" ta="right">
            Thêm / bớt
          </Table.Th>
        </Table.Tr>
      </Table.Thead>
      <Table.Tbody>
        {reserves.map((r) => (
          <Table.Tr key={r.road_name}>
            <Table.Td>{r.road_name}</Table.Td>
            <Table.Td>
              {width(r.from_width_m)} → <b>{width(r.to_width_m)}</b>
            </Table.Td>
            <Table.Td ta="right">
              {r.added_m2 > 0 && <span className="qh-compare-added">+{formatLandArea(r.added_m2)}</span>}
              {r.added_m2 > 0 && r.removed_m2 > 0 && ' / '}
              {r.removed_m2 > 0 && <span className="qh-compare-removed">−{formatLandArea(r.removed_m2)}</span>}
              {r.added_m2 === 0 && r.removed_m2 === 0 && '—'}
            </Table.Td>
          </Table.Tr>
        ))}
      </Table.Tbody>
    </Table>
  )
}
