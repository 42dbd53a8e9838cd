import { afterEach, describe, expect, it, vi } from 'vitest'
import { deviceStorageTexts } from '#core/messages.ts'
import { store } from '../../lib/store.ts'
import { refuseStorage } from '../../../tests/support/refusing-storage.ts'
import { toastsAtom } from '../notifications/atoms.ts'
import { planningFixture } from '../valuation/test-fixtures.ts'
import { list } from '../history/index.ts'

// The server answers the lookup; what is tested is what the device does with the answer.
vi.mock('../../lib/api/index.ts', () => ({
  api: { request: () => Promise.resolve({ ok: true, data: planningFixture }) },
}))
const { lookupPlanning } = await import('./lookup.ts')

let restore = () => {}
afterEach(() => {
  restore()
  store.set(toastsAtom, [])
})

describe('a planning lookup on a device that cannot store it', () => {
  it('still shows the result and tells the person the history did not keep it', async () => {
    restore = refuseStorage('writes')
    const res = await lookupPlanning({ lat: 10.8, lng: 106.7 })
    expect(res).toMatchObject({ ok: true, data: { parcel: { id: planningFixture.parcel!.id } } })
    await vi.waitFor(() =>
      expect(store.get(toastsAtom).map((t) => [t.title, t.color])).toEqual([
        [deviceStorageTexts.HISTORY_NOT_SAVED, 'yellow'],
      ]),
    )
    restore()
    expect(await list()).toEqual([])
  })

  it('keeps the result in the history without a word when the device can store it', async () => {
    await lookupPlanning({ lat: 10.8, lng: 106.7 })
    await vi.waitFor(async () => expect(await list()).toHaveLength(1))
    expect(store.get(toastsAtom)).toEqual([])
  })
})
