import { cleanup, render, screen, waitFor } from '@testing-library/react'
import { createStore, Provider } from 'jotai'
import { afterEach, beforeAll, describe, expect, it } from 'vitest'
import { deviceStorageTexts } from '#core/messages.ts'
import { refuseStorage } from '../../../../tests/support/refusing-storage.ts'
import { withRouter } from '../../../lib/testing/with-router.tsx'
import { toastsAtom } from '../../notifications/atoms.ts'
import { HistoryPanel } from './HistoryPanel.tsx'

beforeAll(() => {
  // Mantine reads the colour scheme through matchMedia, which jsdom does not have.
  window.matchMedia ??= ((query: string) => ({
    matches: false,
    media: query,
    addEventListener() {},
    removeEventListener() {},
    addListener() {},
    removeListener() {},
    onchange: null,
    dispatchEvent: () => false,
  })) as never
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
