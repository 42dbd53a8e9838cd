import { renderHook, waitFor } from '@testing-library/react'
import { createStore, Provider } from 'jotai'
import type { ReactNode } from 'react'
import { afterEach, describe, expect, it } from 'vitest'
import { deviceStorageTexts } from '#core/messages.ts'
import { refuseStorage } from '../../../tests/support/refusing-storage.ts'
import { toastsAtom } from '../notifications/atoms.ts'
import { useOutboxItems } from './use-outbox.ts'

let restore = () => {}
afterEach(() => restore())

describe('an outbox the device cannot read', () => {
  it('says the queue cannot be read and lists nothing instead of loading for ever', async () => {
    restore = refuseStorage('reads')
    const store = createStore()
    const wrapper = ({ children }: { children: ReactNode }) => <Provider store={store}>{children}</Provider>
    const { result } = renderHook(() => useOutboxItems(), { wrapper })
    await waitFor(() => expect(result.current).toEqual([]))
    expect(store.get(toastsAtom).map((t) => [t.title, t.color])).toEqual([
      [deviceStorageTexts.OUTBOX_UNAVAILABLE, 'yellow'],
    ])
  })
})
