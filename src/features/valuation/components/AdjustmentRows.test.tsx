import { afterEach, describe, expect, it } from 'vitest'
import { useState } from 'react'
import { cleanup, fireEvent, render, screen, within } from '@testing-library/react'
import { MantineProvider } from '@mantine/core'
import { valuationFixture } from '../test-fixtures.ts'
import { AdjustedChart } from './AdjustedChart.tsx'
import { AdjustmentRows } from './AdjustmentRows.tsx'

afterEach(cleanup)

function Both() {
  const [selectedId, setSelectedId] = useState<string | null>(null)
  const select = (id: string) => setSelectedId((c) => (c === id ? null : id))
  const list = valuationFixture.comparables
  return (
    <MantineProvider>
      <AdjustedChart
        comparables={list}
        estimate={{ perM2: 115_324_000, lowPerM2: 99_383_000, highPerM2: 135_409_000 }}
        selectedId={selectedId}
        onSelect={select}
      />
      <AdjustmentRows list={list} selectedId={selectedId} onSelect={select} />
    </MantineProvider>
  )
}

describe('the adjustment table and chart', () => {
  it('shows each sale’s raw price, every adjustment in %, the adjusted price, its weight and the repeat sale', () => {
    render(<Both />)
    const rows = screen.getAllByTestId('comparable-row')
    expect(rows).toHaveLength(2)
    expect(within(rows[0]!).getByTestId('repeat-sale').textContent).toBe('Chính thửa này')
    expect(rows[1]!.textContent).toContain('−68,3\u00a0%')
    expect(rows[1]!.textContent).toContain('+101,3\u00a0%')
    expect(rows[1]!.textContent).toContain('131 triệu')
    expect(rows[1]!.textContent).toContain('40 %')
    expect(screen.getByTestId('adjusted-chart').querySelectorAll('.chart-dot')).toHaveLength(2)
  })

  it('opens the chosen sale’s steps with notes and đ/m², and highlights it in the table and on the chart', () => {
    render(<Both />)
    fireEvent.click(screen.getByRole('button', { name: /Giao dịch 2/ }))
    const detail = screen.getByTestId('adjustment-detail')
    expect(detail.textContent).toContain('Hẻm: Mặt tiền thay vì hẻm 1,8 m')
    expect(detail.textContent).toContain('+56 triệu')
    expect(detail.textContent).toContain('= 130.545.500 đ/m²')
    expect(screen.getAllByTestId('comparable-row')[1]!.getAttribute('aria-selected')).toBe('true')
    expect(screen.getByTestId('adjusted-chart').querySelectorAll('.chart-dot-selected')).toHaveLength(1)
    fireEvent.click(screen.getByRole('button', { name: /Giao dịch 2/ }))
    expect(screen.queryByTestId('adjustment-detail')).toBeNull()
  })
})
