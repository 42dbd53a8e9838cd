import { afterEach, describe, expect, it } from 'vitest'
import { cleanup, render, screen } from '@testing-library/react'
import { MantineProvider } from '@mantine/core'
import { valuationFixture } from '../test-fixtures.ts'
import { StatePriceRow, tableLine } from './StatePriceRow.tsx'

const state = valuationFixture.state_price!

describe('the line naming the price table', () => {
  it('names the decision and the day the table takes effect', () => {
    expect(tableLine({ ...state, decision_no: '79/2024/QĐ-UBND', effective_from: '2024-10-31' })).toBe(
      'QĐ 79/2024/QĐ-UBND, áp dụng từ 31/10/2024',
    )
  })

  it('leaves the decision out when the source already names it, so the source line says it once', () => {
    const s = {
      ...state,
      source: 'Quyết định 79/2024/QĐ-UBND',
      decision_no: '79/2024/QĐ-UBND',
      effective_from: '2024-10-31',
    }
    expect(tableLine(s)).toBe('áp dụng từ 31/10/2024')
    expect(`${s.source} · ${tableLine(s)}`.split('79/2024/QĐ-UBND')).toHaveLength(2)
  })
})

describe('the price row found without knowing where the parcel lies on the street', () => {
  afterEach(cleanup)
  const note =
    'Chưa xác định được đoạn chứa thửa đất (không thấy trên bản đồ giao lộ CẦU KHÔNG CÓ); đã chọn đoạn gần nhất, ưu tiên đoạn cùng quận/huyện.'

  it('says so in a note in the text’s own colour, at the size of the row’s text, on screen and in print', () => {
    for (const compact of [false, true]) {
      render(
        <MantineProvider>
          <StatePriceRow s={{ ...state, note }} compact={compact} />
        </MantineProvider>,
      )
      const shown = screen.getByRole('note')
      expect(shown.textContent).toBe(`Lưu ý: ${note}`)
      // Orange letters read below 4.5:1 on white and on the dark theme: the bar beside it carries the colour.
      expect(shown.style.color).toBe('')
      expect(shown.className).toContain('state-price-note')
      cleanup()
    }
  })

  it('shows no note when the row was found between two known crossings', () => {
    render(
      <MantineProvider>
        <StatePriceRow s={{ ...state, note: null }} />
      </MantineProvider>,
    )
    expect(screen.queryByRole('note')).toBeNull()
  })
})
