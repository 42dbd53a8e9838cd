import { describe, expect, it } from 'vitest'
import { valuationFixture } from '../test-fixtures.ts'
import { tableLine } from './StatePriceRow.tsx'

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
