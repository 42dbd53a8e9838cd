import { act, renderHook, waitFor } from '@testing-library/react'
import { createStore, Provider } from 'jotai'
import type { ReactNode } from 'react'
import { describe, expect, it, vi } from 'vitest'
import { deviceStorageTexts } from '#core/messages.ts'
import { toastsAtom } from '../notifications/atoms.ts'

// The device refuses to store anything, as a phone with full storage does.
vi.mock('./store.ts', () => ({
  loadWalk: () => Promise.resolve(undefined),
  saveWalk: () => Promise.reject(new DOMException('full', 'QuotaExceededError')),
  clearWalk: () => Promise.resolve(),
}))
const { useWalk } = await import('./use-walk.ts')

describe('a walk the device cannot store', () => {
  it('tells the person once that the points may be lost, not at every point', async () => {
    const store = createStore()
    const wrapper = ({ children }: { children: ReactNode }) => <Provider store={store}>{children}</Provider>
    const { result } = renderHook(() => useWalk(), { wrapper })
    await waitFor(() => expect(result.current.walk).toBeNull())
    const fix = (lat: number) => ({ lat, lng: 106.7, accuracyM: 3, at: Date.now() })
    act(() => result.current.start('corners', fix(10.8), { parcelId: null, meridian: null }))
    act(() => result.current.markCorner(fix(10.8003)))
    act(() => result.current.markCorner(fix(10.8006)))
    await waitFor(() => expect(store.get(toastsAtom).map((t) => t.title)).toEqual([deviceStorageTexts.WALK_NOT_SAVED]))
    // Still three points on screen: what could not be stored is not dropped from the walk.
    expect(result.current.walk?.points).toHaveLength(3)
  })
})
