import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest'
import { cleanup, fireEvent, render, screen, within } from '@testing-library/react'
import type { CompareData } from '#core/contract/plans.ts'
import type { ApiResult } from '../../lib/api/index.ts'
import { withRouter } from '../../lib/testing/with-router.tsx'

const fetchComparison = vi.fn<(q: unknown) => Promise<ApiResult<CompareData>>>()
vi.mock('./api.ts', () => ({ fetchComparison: (q: unknown) => fetchComparison(q) }))
const { ComparePage } = await import('./ComparePage.tsx')

beforeEach(() => fetchComparison.mockReset())
afterEach(cleanup)

const square = (w: number, s: number, e: number, n: number) => ({
  type: 'Polygon',
  coordinates: [
    [
      [w, s],
      [e, s],
      [e, n],
      [w, n],
      [w, s],
    ],
  ],
})
const plan = (id: string, decision_no: string, approved_at: string, replaced = false) => ({
  id,
  name: 'Phân khu thử nghiệm',
  plan_level: 'QHPK 1/2000',
  decision_no,
  approved_at,
  replaced_by: replaced ? { decision_no: '21/QĐ-UBND', approved_at: '2024-05-01' } : null,
  area_m2: 1000,
})
const data: CompareData = {
  region: {
    kind: 'parcel',
    parcel: { id: '9', sheet_no: 3, parcel_no: 45, address: '12 Đường A' },
    area_m2: 1000,
    geometry: square(108.8, 15.1, 108.801, 15.101),
  },
  plans: [plan('2', '21/QĐ-UBND', '2024-05-01'), plan('1', '20/QĐ-UBND', '2018-04-02', true)],
  from: '1',
  to: '2',
  comparison: {
    changes: [
      {
        field: 'land_use',
        from: 'ODT',
        to: 'DGT',
        from_name: 'Đất ở tại đô thị',
        to_name: 'Đất giao thông',
        area_m2: 400,
        geometry: square(108.8005, 15.1, 108.801, 15.101),
      },
      {
        field: 'max_floors',
        from: 5,
        to: 7,
        from_name: null,
        to_name: null,
        area_m2: 600,
        geometry: square(108.8, 15.1, 108.8005, 15.101),
      },
    ],
    road_reserves: [{ road_name: 'Đường A', from_width_m: 10, to_width_m: 20, added_m2: 55.5, removed_m2: 0 }],
    unchanged_m2: 0,
    only_from_m2: 0,
    only_to_m2: 0,
    pieces: {
      from: [
        {
          land_use_code: 'ODT',
          land_use_name: 'Đất ở tại đô thị',
          color: '#ffa0ff',
          geometry: square(108.8, 15.1, 108.801, 15.101),
        },
      ],
      to: [],
    },
  },
}

const showPage = async (onChoose = vi.fn()) => {
  render(withRouter(<ComparePage search={{ lat: 15.1005, lng: 108.8005 }} onChoose={onChoose} />))
  return onChoose
}

describe('compare screen', () => {
  it('shows the parcel, the verdict, each change with its area and share, and the reserves', async () => {
    fetchComparison.mockResolvedValue({ ok: true, data, message: '' })
    await showPage()
    expect((await screen.findByTestId('compare-place')).textContent).toBe('Thửa 45, tờ 3 — 12 Đường A · 1.000 m²')
    expect(screen.getByTestId('compare-verdict').textContent).toBe(
      'Thay đổi: chức năng sử dụng đất (400 m², 40%); tầng cao tối đa (600 m², 60%); lộ giới 1 tuyến đường.',
    )
    const rows = within(screen.getByTestId('compare-changes')).getAllByRole('row').slice(1)
    expect(rows.map((r) => r.textContent)).toEqual([
      'Chức năng sử dụng đất400 m² (40%)',
      'ODT — Đất ở tại đô thị → DGT — Đất giao thông400 m² (40%)',
      'Tầng cao tối đa600 m² (60%)',
      '5 tầng → 7 tầng ↑600 m² (60%)',
    ])
    expect(screen.getByTestId('compare-reserves').textContent).toContain('10 m → 20 m')
    expect(screen.getByTestId('compare-reserves').textContent).toContain('+55,5 m²')
    expect(fetchComparison).toHaveBeenCalledWith({ lat: 15.1005, lng: 108.8005 })
  })

  it('outlines the picked change on both drawings, and takes it away when picked again', async () => {
    fetchComparison.mockResolvedValue({ ok: true, data, message: '' })
    await showPage()
    const pick = await screen.findByRole('button', { name: '5 tầng → 7 tầng ↑' })
    expect(screen.queryAllByTestId('compare-highlight')).toHaveLength(0)
    fireEvent.click(pick)
    expect(pick.getAttribute('aria-pressed')).toBe('true')
    expect(screen.getAllByTestId('compare-highlight')).toHaveLength(2)
    fireEvent.click(pick)
    expect(screen.queryAllByTestId('compare-highlight')).toHaveLength(0)
  })

  it('asks again with the two plans chosen, and will not compare a plan with itself', async () => {
    fetchComparison.mockResolvedValue({ ok: true, data, message: '' })
    const onChoose = await showPage()
    const from = (await screen.findByTestId('compare-from')) as HTMLSelectElement
    const to = screen.getByTestId('compare-to') as HTMLSelectElement
    fireEvent.change(from, { target: { value: '2' } })
    expect(screen.getByText('Hãy chọn hai đồ án khác nhau.')).toBeTruthy()
    expect((screen.getByRole('button', { name: 'So sánh' }) as HTMLButtonElement).disabled).toBe(true)
    fireEvent.change(to, { target: { value: '1' } })
    fireEvent.click(screen.getByRole('button', { name: 'So sánh' }))
    expect(onChoose).toHaveBeenCalledWith('2', '1')
  })

  it('gives a wide area in ha and each change as a share of the land both plans cover, not of the empty ground around it', async () => {
    const wide: CompareData = {
      ...data,
      region: { ...data.region, kind: 'area', parcel: null, area_m2: 6_641_590 },
      plans: [
        { ...data.plans[0]!, area_m2: 25_000 },
        { ...data.plans[1]!, area_m2: 20_000 },
      ],
      comparison: {
        ...data.comparison!,
        changes: [{ ...data.comparison!.changes[0]!, area_m2: 12_000 }],
        road_reserves: [],
        unchanged_m2: 8_000,
        only_to_m2: 5_000,
      },
    }
    fetchComparison.mockResolvedValue({ ok: true, data: wide, message: '' })
    await showPage()
    expect((await screen.findByTestId('compare-place')).textContent).toBe('Khu vực đang xem trên bản đồ · 664,16 ha')
    expect(screen.getByTestId('compare-verdict').textContent).toBe('Thay đổi: chức năng sử dụng đất (1,2 ha, 60%).')
    const rows = within(screen.getByTestId('compare-changes')).getAllByRole('row').slice(1)
    expect(rows.map((r) => r.textContent)).toEqual([
      'Chức năng sử dụng đất1,2 ha (60%)',
      'ODT — Đất ở tại đô thị → DGT — Đất giao thông1,2 ha (60%)',
    ])
    expect(screen.getByTestId('compare-basis').textContent).toContain('2 ha cả hai đồ án cùng quy hoạch')
  })

  it('names each plan in the pickers by its date and decision number first, so a narrow select cuts the level, never the number', async () => {
    fetchComparison.mockResolvedValue({ ok: true, data, message: '' })
    await showPage()
    const from = (await screen.findByTestId('compare-from')) as HTMLSelectElement
    expect([...from.options].map((o) => o.textContent)).toEqual([
      '01/05/2024 · QĐ 21/QĐ-UBND · QHPK 1/2000',
      '02/04/2018 · QĐ 20/QĐ-UBND · QHPK 1/2000 (đã được thay thế)',
    ])
  })

  it('spells out the chosen plan under each picker, read with it by a screen reader, and follows a new choice', async () => {
    fetchComparison.mockResolvedValue({ ok: true, data, message: '' })
    await showPage()
    const from = (await screen.findByTestId('compare-from')) as HTMLSelectElement
    const said = (el: HTMLElement) =>
      (el.getAttribute('aria-describedby') ?? '')
        .split(' ')
        .map((id) => document.getElementById(id)?.textContent)
        .filter(Boolean)
    expect(said(from)).toContain(
      'Phân khu thử nghiệm · QĐ 20/QĐ-UBND ngày 02/04/2018, đã được thay thế bởi QĐ 21/QĐ-UBND ngày 01/05/2024',
    )
    expect(said(screen.getByTestId('compare-to'))).toContain('Phân khu thử nghiệm · QĐ 21/QĐ-UBND ngày 01/05/2024')
    fireEvent.change(from, { target: { value: '2' } })
    expect(said(from)).toContain('Phân khu thử nghiệm · QĐ 21/QĐ-UBND ngày 01/05/2024')
  })

  it('says when each level has one version only', async () => {
    fetchComparison.mockResolvedValue({
      ok: true,
      data: { ...data, plans: [plan('2', '21/QĐ-UBND', '2024-05-01')], from: null, to: null, comparison: null },
      message: '',
    })
    await showPage()
    expect((await screen.findByTestId('compare-single')).textContent).toContain('chỉ có một đồ án')
  })

  it('says a connection is needed when the server cannot be reached, and the server’s words otherwise', async () => {
    fetchComparison.mockResolvedValue({
      ok: false,
      code: 'Network',
      status: 0,
      message: 'x',
      messages: ['x'],
      fieldErrors: {},
    })
    await showPage()
    expect((await screen.findByTestId('compare-offline')).textContent).toContain('Cần kết nối mạng')
    cleanup()
    fetchComparison.mockResolvedValue({
      ok: false,
      code: 'NotFound',
      status: 404,
      message: 'Không có thửa đất tại điểm này.',
      messages: [],
      fieldErrors: {},
    })
    await showPage()
    expect((await screen.findByTestId('compare-error')).textContent).toBe('Không có thửa đất tại điểm này.')
  })
})
