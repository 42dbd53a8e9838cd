import { afterEach, describe, expect, it } from 'vitest'
import { cleanup, render, screen, within } from '@testing-library/react'
import type { PlanningData } from '#core/contract/lookups.ts'
import { planningFixture } from '../../valuation/test-fixtures.ts'
import { withRouter } from '../../../lib/testing/with-router.tsx'
import ResultCard from './ResultCard.tsx'

afterEach(cleanup)

const zone = (id: string, plan_level: string, decision_no: string, land_use_code: string, governing: boolean) => ({
  ...planningFixture.zones[0]!,
  id,
  plan_name: `Đồ án ${decision_no}`,
  plan_level,
  decision_no,
  land_use_code,
  governing,
})

const zonesOnly: PlanningData = {
  ...planningFixture,
  parcel: null,
  road_reserves: [],
  zones: [
    zone('1', 'QHCT 1/500', '300/QĐ-UBND', 'DKV', true),
    zone('2', 'QHPK 1/2000', '201/QĐ-UBND', 'ODT', false),
    zone('3', 'QHC', '100/QĐ-TTg', 'ODT', false),
  ],
}

const show = async (result: PlanningData) => {
  render(
    withRouter(
      <ResultCard
        selection={{ point: { lat: result.location.lat, lng: result.location.lng }, status: 'ready', result }}
        shareUrl="http://localhost/#/x"
        onLookup={() => {}}
      />,
    ),
  )
  await screen.findByTestId('result-card')
}

describe('result card', () => {
  it("says a mixed use written without each part's area as a person does, listing each code with no made-up area", async () => {
    const parcel = planningFixture.parcel!
    await show({
      ...planningFixture,
      parcel: {
        ...parcel,
        area_m2: 152.5,
        land_use: [
          { code: 'CLN', name: 'Đất trồng cây lâu năm', area_m2: null },
          { code: 'ODT', name: 'Đất ở tại đô thị', area_m2: null },
        ],
      },
    })
    const uses = screen.getByTestId('mixed-use')
    expect(uses.textContent).toContain('đất ở kết hợp cây lâu năm')
    expect(
      within(uses.parentElement!)
        .getAllByRole('listitem')
        .map((li) => li.textContent),
    ).toEqual(['CLN — Đất trồng cây lâu năm', 'ODT — Đất ở tại đô thị'])
    expect(screen.getByText('152,5 m²')).toBeTruthy()
  })

  it('shows a zones-only answer without a parcel block or valuation, the governing plan apart from the higher-level plans', async () => {
    await show(zonesOnly)
    expect(screen.getByTestId('result-title').textContent).toBe('Quy hoạch tại điểm đã chọn')
    expect(screen.getByTestId('no-parcel')).toBeTruthy()
    expect(screen.queryByText('Thửa đất')).toBeNull()
    expect(screen.queryByTestId('reserve-verdict')).toBeNull()
    expect(screen.queryByText('Định giá thửa này')).toBeNull()
    expect(screen.queryByText('Sơ đồ thửa')).toBeNull()
    expect(screen.queryByText('Đi đo ranh')).toBeNull()
    const governing = screen.getByTestId('governing-plan')
    expect(within(governing).getAllByTestId('governing-zone')).toHaveLength(1)
    expect(governing.textContent).toContain('300/QĐ-UBND')
    expect(governing.textContent).not.toContain('201/QĐ-UBND')
    const higher = screen.getByTestId('higher-plans')
    expect(within(higher).getAllByTestId('higher-zone')).toHaveLength(2)
    expect(higher.textContent).toContain('201/QĐ-UBND')
    expect(higher.textContent).toContain('100/QĐ-TTg')
    expect(screen.getByRole('heading', { name: 'Quy hoạch cấp trên cũng phủ điểm này' })).toBeTruthy()
  })

  it('shows no higher-level heading when the governing plan is the only one', async () => {
    await show({ ...zonesOnly, zones: [zone('1', 'QHPK 1/2000', '201/QĐ-UBND', 'ODT', true)] })
    expect(screen.getByTestId('governing-plan').textContent).toContain('201/QĐ-UBND')
    expect(screen.queryByTestId('higher-plans')).toBeNull()
  })

  it('names the scanned planning maps under the point with their level, decision and date, the older version as replaced, and nothing when there are none', async () => {
    await show({
      ...zonesOnly,
      overlays: [
        {
          id: 'qhpk-2',
          name: 'QHPK Hòa Cường điều chỉnh',
          plan_level: 'QHPK 1/2000',
          decision_no: '88/QĐ-UBND',
          approved_at: '2025-09-01',
          replaced_by: null,
        },
        {
          id: 'qhpk-1',
          name: 'QHPK Hòa Cường (bản quét)',
          plan_level: 'QHPK 1/2000',
          decision_no: '1234/QĐ-UBND',
          approved_at: '2024-05-20',
          replaced_by: { decision_no: '88/QĐ-UBND', approved_at: '2025-09-01' },
        },
      ],
    })
    const list = screen.getByTestId('result-overlays')
    expect(list.textContent).toContain('QHPK 1/2000, QĐ 1234/QĐ-UBND ngày 20/05/2024')
    // The newer approval is in force and says what it replaced; the older one stays listed as history.
    expect(screen.getByTestId('overlay-in-force').textContent).toContain(
      'Đang áp dụng; đã thay thế QĐ 1234/QĐ-UBND ngày 20/05/2024',
    )
    expect(screen.getByTestId('overlay-history').textContent).toContain('Thay thế bởi QĐ 88/QĐ-UBND ngày 01/09/2025')
    cleanup()
    await show(zonesOnly)
    expect(screen.queryByTestId('result-overlays')).toBeNull()
  })

  it('shows when the governing plan was approved and the older version it replaced, kept apart as history, and offers the comparison', async () => {
    const older = {
      ...zone('4', 'QHPK 1/2000', '2468/QĐ-UBND', 'ODT', false),
      approved_at: '2017-06-12',
      replaced_by: { decision_no: '201/QĐ-UBND', approved_at: '2024-03-15' },
    }
    await show({ ...planningFixture, zones: [zone('2', 'QHPK 1/2000', '201/QĐ-UBND', 'DGD', true), older] })
    expect(screen.getByTestId('governing-approval').textContent).toBe(
      'Phê duyệt ngày 15/03/2024; thay thế đồ án cùng cấp theo QĐ 2468/QĐ-UBND ngày 12/06/2017.',
    )
    const history = screen.getByTestId('plan-history')
    expect(within(history).getByTestId('history-zone').textContent).toContain(
      'Thay thế bởi QĐ 201/QĐ-UBND ngày 15/03/2024',
    )
    expect(screen.queryByTestId('higher-plans')).toBeNull()
    const link = screen.getByTestId('compare-plans')
    expect(link.textContent).toBe('So sánh với đồ án cũ')
    const { lat, lng } = planningFixture.location
    expect(link.getAttribute('href')).toBe(`/compare?lat=${lat}&lng=${lng}`)
  })

  it('lists a replaced QHPK with the higher-level plans it belongs to, not under the QHCT that governs', async () => {
    const olderPk = {
      ...zone('5', 'QHPK 1/2000', '2468/QĐ-UBND', 'ODT', false),
      approved_at: '2017-06-12',
      replaced_by: { decision_no: '201/QĐ-UBND', approved_at: '2024-03-15' },
    }
    await show({
      ...planningFixture,
      zones: [
        zone('1', 'QHCT 1/500', '300/QĐ-UBND', 'ODT', true),
        { ...zone('2', 'QHPK 1/2000', '201/QĐ-UBND', 'ODT', false), approved_at: '2024-03-15', replaced_by: null },
        olderPk,
      ],
    })
    const history = screen.getByTestId('plan-history')
    expect(history.textContent).toMatch(/^Lịch sử QHPK 1\/2000: đồ án cũ đã được thay thế/)
    const higher = screen.getByTestId('higher-plans')
    // Under the higher-level plans: it follows them in the card.
    expect(higher.compareDocumentPosition(history) & Node.DOCUMENT_POSITION_FOLLOWING).toBeTruthy()
    expect(
      screen.getByTestId('governing-plan').compareDocumentPosition(history) & Node.DOCUMENT_POSITION_FOLLOWING,
    ).toBeTruthy()
    expect(within(screen.getByTestId('governing-plan')).queryByTestId('history-zone')).toBeNull()
  })

  it('offers no comparison where one plan covers the point, and compares a box around the point when there is no parcel', async () => {
    await show({ ...planningFixture, zones: [zone('2', 'QHPK 1/2000', '201/QĐ-UBND', 'ODT', true)] })
    expect(screen.queryByTestId('compare-plans')).toBeNull()
    cleanup()
    await show(zonesOnly)
    expect(screen.getByTestId('compare-plans').getAttribute('href')).toMatch(
      /^\/compare\?bbox=[\d.]+%2C[\d.]+%2C[\d.]+%2C[\d.]+$/,
    )
  })

  it('flags a zone whose FAR exceeds its density times its floors, with the figures still shown, and not a consistent one', async () => {
    const impossible = {
      ...zone('1', 'QHPK 1/2000', '201/QĐ-UBND', 'ODT', true),
      max_density_pct: 61,
      max_floors: 6,
      max_far: 6,
    }
    await show({ ...planningFixture, zones: [impossible] })
    const governing = screen.getByTestId('governing-zone')
    expect(within(governing).getByRole('note').textContent).toBe(
      'Hệ số sử dụng đất lớn hơn mật độ × tầng cao: kiểm tra lại đồ án',
    )
    expect(governing.textContent).toContain('61%')
    expect(governing.textContent).toContain('6 tầng')
    cleanup()
    // 80 % × 5 floors builds a FAR of 4: the fixture's own figures are consistent.
    await show({ ...planningFixture, zones: [zone('1', 'QHPK 1/2000', '201/QĐ-UBND', 'ODT', true)] })
    expect(within(screen.getByTestId('governing-zone')).queryByRole('note')).toBeNull()
  })
})
