import { atomWithStorage, createJSONStorage } from 'jotai/utils'
import type { LatLngZoom } from '../../../lib/map-url.ts'
import { storageKeys } from '../../../lib/storage-keys.ts'

/**
 * A place tapped offline outside every saved area, which the user asked to be reminded of: once the
 * device is online again the map offers to save the area around it. Kept on the device across restarts,
 * since being back online may be days later.
 */
export const saveReminderAtom = atomWithStorage<LatLngZoom | null>(
  storageKeys.saveReminder,
  null,
  createJSONStorage<LatLngZoom | null>(() => localStorage),
  {
    getOnInit: true,
  },
)
