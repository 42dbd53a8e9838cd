import { describe, expect, it } from 'vitest'
import { clearWalk, loadWalk, saveWalk } from './store.ts'
import { newWalk, offerFix } from './track.ts'

describe('walk kept on the device', () => {
  it('comes back with its points after being saved, and is gone once cleared', async () => {
    const w = offerFix(
      newWalk({ id: 'a', now: 1, mode: 'corners', meridian: 105.75, parcelId: 'p1' }),
      { lat: 10.8, lng: 106.7, accuracyM: 4, at: 2 },
      true,
    ).walk
    await saveWalk(w)
    expect(await loadWalk()).toEqual(w)
    await clearWalk()
    expect(await loadWalk()).toBeUndefined()
  })
})
