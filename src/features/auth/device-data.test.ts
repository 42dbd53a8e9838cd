import { beforeEach, describe, expect, it, vi } from 'vitest'
import { createStore } from 'jotai'
import { createStore as createIdbStore, keys, set as idbSet } from 'idb-keyval'
import { listItems, putItem, removeItem, type OutboxItem } from '#core/outbox/queue.ts'
import { createApiClient } from '../../lib/api/client.ts'
import { storageKeys } from '../../lib/storage-keys.ts'
import {
  add as addHistory,
  clear as clearHistory,
  list as listHistory,
  type NewHistoryEntry,
} from '../history/history.ts'
import { draftAtom, photosAtom, queuedAtom } from '../valuation/atoms.ts'
import { readQueued, writeQueued } from '../valuation/queue-store.ts'
import { newPhoto } from '../valuation/photos.ts'
import { clearWalk, loadWalk, saveWalk } from '../walk/store.ts'
import type { Walk } from '../walk/track.ts'
import { createAuthApi } from './api.ts'
import { sessionAtom } from './atoms.ts'
import { clearDeviceData } from '../../app/device-data.ts'
import { appApiHooks } from '../../app/api-hooks.ts'
import { unsentPhotoCount } from './unsent-photos.ts'
import { photoOutboxItem } from '../../../tests/support/outbox-item.ts'

function queued(name: string, status: OutboxItem['status']): OutboxItem {
  return photoOutboxItem(name, Date.now(), { status, uploadId: status === 'sent' ? 'u-1' : null })
}

const measures = () => createIdbStore(storageKeys.measuresDb, 'measures')

/** One of everything a person leaves on the device: queued photos, a lookup, a draft, a walk, a kept measurement. */
async function fillDevice(store: ReturnType<typeof createStore>) {
  await putItem(queued('chua-gui', 'pending'))
  await putItem(queued('da-gui', 'sent'))
  await addHistory({
    kind: 'planning',
    lat: 10.77,
    lng: 106.7,
    label: 'Tờ 12, thửa 34',
    result: {},
  } as unknown as NewHistoryEntry<'planning'>)
  store.set(draftAtom, { ...store.get(draftAtom), area: '120' } as never)
  store.set(photosAtom, [newPhoto('anh.jpg')])
  const waiting = { at: 1, draft: store.get(draftAtom), refused: null, owner: 'Lan' }
  await writeQueued(waiting)
  store.set(queuedAtom, waiting)
  await saveWalk({
    id: 'w1',
    startedAt: 1,
    mode: 'manual',
    stepM: 5,
    meridian: 105.75,
    parcelId: null,
    points: [],
  } as unknown as Walk)
  await idbSet('m1', { id: 'm1', name: 'Mặt tiền', kind: 'length', points: [], at: 1 }, measures())
}

beforeEach(async () => {
  localStorage.clear()
  for (const item of await listItems()) await removeItem(item.id)
  await clearHistory()
  await clearWalk()
})

describe('what logging out leaves on the device', () => {
  it('counts only the photos not yet on the server as unsent', async () => {
    await putItem(queued('a', 'pending'))
    await putItem(queued('b', 'failed'))
    await putItem(queued('c', 'sent'))
    expect(await unsentPhotoCount()).toBe(2)
  })

  it('clears the outbox with its photos, the history, the valuation draft, a valuation waiting offline, the walk and the kept measurements', async () => {
    const store = createStore()
    await fillDevice(store)
    expect(localStorage.getItem(storageKeys.valuationDraft)).not.toBeNull()
    expect(await readQueued()).not.toBeNull()
    await clearDeviceData(store)
    expect(await readQueued()).toBeNull()
    expect(store.get(queuedAtom)).toBeNull()
    expect(await listItems()).toEqual([])
    expect(await listHistory()).toEqual([])
    expect(await loadWalk()).toBeUndefined()
    expect(await keys(measures())).toEqual([])
    expect(store.get(photosAtom)).toEqual([])
    expect(localStorage.getItem(storageKeys.valuationDraft)).toBeNull()
  })

  it('does it on logout, after the session is gone, also when the server cannot be reached', async () => {
    const store = createStore()
    store.set(sessionAtom, {
      userName: 'Lan',
      token: 't',
      expiresAt: '2099-01-01T00:00:00+07:00',
      isLogin: true,
      isOpenLogin: false,
    })
    await fillDevice(store)
    const api = createApiClient({
      store,
      hooks: appApiHooks(store),
      baseUrl: '',
      fetch: vi.fn<typeof fetch>().mockRejectedValue(new TypeError('Failed to fetch')),
    })
    await createAuthApi(api, store, clearDeviceData).logout({ clearDevice: true })
    expect(store.get(sessionAtom).isLogin).toBe(false)
    expect(await listItems()).toEqual([])
    expect(await listHistory()).toEqual([])
  })

  it('keeps the history, the valuation draft, the photos and the measurements on logout unless asked to clear them', async () => {
    const store = createStore()
    store.set(sessionAtom, {
      userName: 'Lan',
      token: 't',
      expiresAt: '2099-01-01T00:00:00+07:00',
      isLogin: true,
      isOpenLogin: false,
    })
    await fillDevice(store)
    const api = createApiClient({
      store,
      hooks: appApiHooks(store),
      baseUrl: '',
      fetch: vi.fn<typeof fetch>().mockRejectedValue(new TypeError('Failed to fetch')),
    })
    await createAuthApi(api, store, clearDeviceData).logout()
    expect(store.get(sessionAtom).isLogin).toBe(false)
    expect(await listHistory()).toHaveLength(1)
    expect(await listItems()).toHaveLength(2)
    expect(await keys(measures())).toEqual(['m1'])
    expect(localStorage.getItem(storageKeys.valuationDraft)).toContain('120')
  })
})
