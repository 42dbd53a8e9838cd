import { useEffect, useSyncExternalStore } from 'react'
import { positionSource, type PositionSnapshot } from './source.ts'

/**
 * The app's position, re-rendered as it changes (and twice a second while its age moves). `hold`
 * keeps the phone's location watched while the screen is open; the receiver, when connected, feeds it
 * either way.
 */
export function usePosition(hold = true): PositionSnapshot {
  const source = positionSource()
  useEffect(() => (hold ? source.acquire() : undefined), [hold, source])
  return useSyncExternalStore(source.subscribe, source.getSnapshot)
}
