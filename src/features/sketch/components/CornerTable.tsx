import { Table } from '@mantine/core'
import { crsLabel } from '../exports.ts'
import type { Outline } from '../geometry.ts'

const metres = new Intl.NumberFormat('vi-VN', { minimumFractionDigits: 2, maximumFractionDigits: 2 })

/** The certificate's corner table: each corner's VN-2000 X (northing) and Y (easting) and the side to the next corner. */
export function CornerTable({ outline }: { outline: Outline }) {
  return (
    <Table
      striped
      withTableBorder
      fz="sm"
      className="sketch-table"
      data-testid="corner-table"
      aria-label={`Toạ độ góc thửa, ${crsLabel(outline.meridian)}`}
    >
      <Table.Caption>{crsLabel(outline.meridian)}</Table.Caption>
      <Table.Thead>
        <Table.Tr>
          <Table.Th scope="col">Điểm</Table.Th>
          <Table.Th scope="col">X (m)</Table.Th>
          <Table.Th scope="col">Y (m)</Table.Th>
          <Table.Th scope="col">Cạnh tới điểm sau (m)</Table.Th>
        </Table.Tr>
      </Table.Thead>
      <Table.Tbody>
        {outline.corners.map((c, i) => {
          const next = outline.corners[(i + 1) % outline.corners.length]!
          return (
            <Table.Tr key={c.n} data-x={c.x.toFixed(3)} data-y={c.y.toFixed(3)}>
              <Table.Th scope="row">{c.n}</Table.Th>
              <Table.Td>{metres.format(c.x)}</Table.Td>
              <Table.Td>{metres.format(c.y)}</Table.Td>
              <Table.Td aria-label={`Cạnh ${c.n}–${next.n}: ${metres.format(outline.edges[i]!.lengthM)} m`}>
                {metres.format(outline.edges[i]!.lengthM)}
              </Table.Td>
            </Table.Tr>
          )
        })}
      </Table.Tbody>
    </Table>
  )
}
