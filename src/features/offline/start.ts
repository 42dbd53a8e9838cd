import { api } from '../../lib/api/index.ts'
import { store } from '../../lib/store.ts'
import { startOutbox } from '../outbox/index.ts'
import { areaManager } from './service.ts'
import { requestPersistence } from './storage.ts'

let started = false

/**
 * Starts the offline features once per page (loaded after the first paint): downloads interrupted by
 * closing the app carry on, the connection pausing and resuming them, and the outbox of queued
 * photos with its send triggers.
 */
export async function startOfflineFeatures(): Promise<void> {
  if (started) return
  started = true
  window.addEventListener('offline', () => areaManager.pauseAllOffline())
  window.addEventListener('online', () => void areaManager.resumeAllOnline())
  // Installing shows the user means to keep the app: the moment to ask that its data be kept too.
  window.addEventListener('appinstalled', () => void requestPersistence())
  await Promise.all([areaManager.resumeUnfinished(), startOutbox({ store, api })])
}
