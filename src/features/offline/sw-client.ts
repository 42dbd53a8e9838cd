import { createStore, del, get, set } from 'idb-keyval'
import { offlineDbs, settingKeys, swMessages } from '#core/offline/cache-names.ts'

/** Talking to the service worker about its recent-tile cache. */

const settings = () => createStore(...offlineDbs.settings)

export type RecentTileStats = { bytes: number; count: number; capBytes: number }

/** Size, count and cap of the recently viewed tiles, or null without a controlling worker. */
export function recentTileStats(timeoutMs = 3000): Promise<RecentTileStats | null> {
  const worker = typeof navigator !== 'undefined' ? navigator.serviceWorker?.controller : null
  if (!worker) return Promise.resolve(null)
  return new Promise((resolve) => {
    const channel = new MessageChannel()
    const timer = setTimeout(() => resolve(null), timeoutMs)
    channel.port1.onmessage = (e: MessageEvent<RecentTileStats>) => {
      clearTimeout(timer)
      resolve(e.data)
    }
    worker.postMessage({ type: swMessages.recentTileStats }, [channel.port2])
  })
}

export function getRecentTileCap(): Promise<number | undefined> {
  return get<number>(settingKeys.recentTileCap, settings())
}

/** The user's cap for recently viewed tiles in bytes (null: automatic); the worker evicts down to it at once. */
export async function setRecentTileCap(bytes: number | null): Promise<void> {
  if (bytes === null) await del(settingKeys.recentTileCap, settings())
  else await set(settingKeys.recentTileCap, bytes, settings())
  navigator.serviceWorker?.controller?.postMessage({ type: swMessages.tileSettingsChanged })
}
