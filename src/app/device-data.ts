import { RESET } from 'jotai/utils'
import { listItems, outboxChanged, removeItem } from '#core/outbox/queue.ts'
import type { Store } from '../lib/store.ts'
import { clear as clearHistory } from '../features/history/index.ts'
import { clearSavedMeasures } from '../features/map/index.ts'
import { clearQueued, draftAtom, photosAtom } from '../features/valuation/index.ts'
import { clearWalk } from '../features/walk/index.ts'

/**
 * On a shared phone the next person must not find the last one's work: when the person logging out
 * chooses to clear the device, the lookup history, the typed valuation draft and its photos, a
 * valuation asked offline and still waiting, the boundary walk in progress, the measurements kept on
 * the map, and every photo kept in the outbox (sent or not; the Blobs are the
 * device's copies) go with the session. Saved map areas stay: they are public data, not the person's.
 */
export async function clearDeviceData(store: Store): Promise<void> {
  store.set(photosAtom, [])
  store.set(draftAtom, RESET)
  const items = await listItems()
  await Promise.all([
    ...items.map((item) => removeItem(item.id)),
    clearHistory(),
    clearWalk(),
    clearQueued(store),
    clearSavedMeasures(store),
  ])
  outboxChanged()
}
