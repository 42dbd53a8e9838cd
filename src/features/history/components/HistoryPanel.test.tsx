import { cleanup, render, screen, waitFor, within } from '@testing-library/react'
import userEvent from '@testing-library/user-event'
import { createStore, Provider } from 'jotai'
import { afterEach, beforeAll, describe, expect, it } from 'vitest'
import { deviceStorageTexts } from '#core/messages.ts'
import { refuseStorage } from '../../../../tests/support/refusing-storage.ts'
import { withRouter } from '../../../lib/testing/with-router.tsx'
import { toastsAtom } from '../../notifications/atoms.ts'
import { HistoryPanel } from './HistoryPanel.tsx'
import { add, clear, type NewHistoryEntry } from '../history.ts'
import type { PlanningData } from '#core/contract/lookups.ts'

beforeAll(() => {
  // The kind filter (a segmented control) measures itself; jsdom lays nothing out.
  window.ResizeObserver ??= class {
    observe() {}
    unobserve() {}
    disconnect() {}
  }
})
let restore = () => {}
afterEach(() => {
  restore()
  cleanup()
})

describe('a history the device cannot read', () => {
  it('says the history cannot be read and shows the empty list instead of loading for ever', async () => {
    restore = refuseStorage('reads')
    const store = createStore()
    render(<Provider store={store}>{withRouter(<HistoryPanel onOpenValuation={() => {}} />)}</Provider>)
    await waitFor(() =>
      expect(store.get(toastsAtom).map((t) => [t.title, t.color])).toEqual([
        [deviceStorageTexts.HISTORY_UNAVAILABLE, 'yellow'],
      ]),
    )
    expect(await screen.findByText('Chưa có lần tra cứu nào.')).toBeTruthy()
  })
})

function planningEntry(parcelNo: number): NewHistoryEntry {
  const result = {
    parcel: { id: `p${parcelNo}`, area_m2: 120, land_use: [] },
    zones: [],
    road_reserves: [],
    source: { name: 'Dữ liệu mô phỏng', data_date: '2025-01-01' },
  } as unknown as PlanningData
  return {
    kind: 'planning',
    at: 1_700_000_000_000 + parcelNo,
    lat: 10.8,
    lng: 106.69,
    label: `Tờ 1, thửa ${parcelNo}`,
    result,
  }
}

describe('history rows read by a screen reader and a keyboard', () => {
  it('gives every row its actions as buttons that say which stored lookup they act on', async () => {
    await clear()
    await add(planningEntry(5))
    await add(planningEntry(7))
    render(<Provider store={createStore()}>{withRouter(<HistoryPanel onOpenValuation={() => {}} />)}</Provider>)
    const list = await screen.findByRole('list', { name: 'Lịch sử tra cứu' })
    await waitFor(() => expect(within(list).getAllByRole('listitem')).toHaveLength(2))
    const open5 = within(list).getByRole('button', { name: 'Mở', description: /Tờ 1, thửa 5/ })
    expect(within(list).getByRole('button', { name: 'Xem trên bản đồ', description: /Tờ 1, thửa 7/ })).toBeTruthy()
    expect(within(list).getByRole('button', { name: 'Sơ đồ thửa', description: /Tờ 1, thửa 5/ })).toBeTruthy()
    open5.focus()
    await userEvent.keyboard('{Enter}')
    expect(open5.getAttribute('aria-expanded')).toBe('true')
    expect(await screen.findByTestId('history-details')).toBeTruthy()
  })
})
