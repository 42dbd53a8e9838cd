import { beforeEach, describe, expect, it, vi } from 'vitest'
import { createStore } from 'jotai'
import { clear, get as idbGet } from 'idb-keyval'
import { createApiClient } from '../../lib/api/client.ts'
import { appApiHooks } from '../../app/api-hooks.ts'
import { storageKeys } from '../../lib/storage-keys.ts'
import { emptySession, sessionAtom } from '../auth/atoms.ts'
import { refreshUsage } from './api.ts'
import { emptyUsage, isUsageStale, loadStoredUsage, lowUsageText, remaining, usageAtom } from './atoms.ts'
import { formatResetTime } from '../../lib/errors.ts'

const usageBody = {
  message: 'ok',
  meta: { code: 'Ok', status: 'OK' },
  data: { count: 6, limit: 20, resets_at: '2026-03-10T17:00:00Z' },
}

beforeEach(async () => {
  localStorage.clear()
  await clear()
})

describe('usage counter', () => {
  it('starts at 0', () => {
    expect(createStore().get(usageAtom)).toEqual(emptyUsage)
    expect(emptyUsage.count).toBe(0)
  })

  it('is kept in IndexedDB and read back at start, so the last count shows offline', async () => {
    const first = createStore()
    first.set(usageAtom, { count: 7, limit: 20, resetsAt: '2026-03-10T17:00:00Z', updatedAt: 100 })
    await vi.waitFor(async () => expect(await idbGet(storageKeys.usage)).toMatchObject({ count: 7 }))
    const second = createStore()
    await loadStoredUsage(second)
    expect(second.get(usageAtom)).toMatchObject({ count: 7, limit: 20 })
  })

  it('keeps a count the server gave during start over an older stored one', async () => {
    createStore().set(usageAtom, { count: 1, limit: 20, resetsAt: null, updatedAt: 100 })
    await vi.waitFor(async () => expect(await idbGet(storageKeys.usage)).toBeDefined())
    const store = createStore()
    store.set(usageAtom, { count: 9, limit: 20, resetsAt: null, updatedAt: 200 })
    await loadStoredUsage(store)
    expect(store.get(usageAtom).count).toBe(9)
  })

  it('is set from GET /api/auth/usage on start when logged in', async () => {
    const store = createStore()
    store.set(sessionAtom, {
      userName: 'Lan',
      token: 'abc',
      expiresAt: '2099-01-01T00:00:00Z',
      isLogin: true,
      isOpenLogin: false,
    })
    const fetchMock = vi.fn<typeof fetch>().mockResolvedValue(new Response(JSON.stringify(usageBody)))
    await refreshUsage(createApiClient({ store, hooks: appApiHooks(store), baseUrl: '', fetch: fetchMock }), store)
    expect(String(fetchMock.mock.calls[0]![0])).toBe('/api/auth/usage')
    expect(store.get(usageAtom)).toMatchObject({ count: 6, limit: 20, resetsAt: '2026-03-10T17:00:00Z' })
  })

  it('tells a user whose session expired to log in again when the app starts', async () => {
    const store = createStore()
    store.set(sessionAtom, {
      userName: 'Lan',
      token: 'abc',
      expiresAt: '2000-01-01T00:00:00Z',
      isLogin: true,
      isOpenLogin: false,
    })
    const fetchMock = vi.fn<typeof fetch>()
    void refreshUsage(createApiClient({ store, hooks: appApiHooks(store), baseUrl: '', fetch: fetchMock }), store)
    await Promise.resolve()
    expect(fetchMock).not.toHaveBeenCalled()
    expect(store.get(sessionAtom)).toMatchObject({ isLogin: false, isOpenLogin: true })
  })

  it('asks nothing and opens no dialog on start when logged out', async () => {
    const store = createStore()
    store.set(sessionAtom, emptySession)
    const fetchMock = vi.fn<typeof fetch>()
    await refreshUsage(createApiClient({ store, hooks: appApiHooks(store), baseUrl: '', fetch: fetchMock }), store)
    expect(fetchMock).not.toHaveBeenCalled()
    expect(store.get(sessionAtom).isOpenLogin).toBe(false)
  })

  it('counts what is left and knows a count from before the reset time is stale', () => {
    const u = { count: 18, limit: 20, resetsAt: '2026-03-10T17:00:00Z', updatedAt: 1 }
    expect(remaining(u)).toBe(2)
    expect(remaining({ ...u, count: 25 })).toBe(0)
    expect(isUsageStale(u, Date.parse('2026-03-10T16:00:00Z'))).toBe(false)
    expect(isUsageStale(u, Date.parse('2026-03-10T17:00:00Z'))).toBe(true)
  })
})

describe('warning near the day’s last lookups', () => {
  const at = (count: number) => ({ count, limit: 20, resetsAt: '2026-03-10T17:00:00Z', updatedAt: 1 })
  const now = Date.parse('2026-03-10T09:00:00Z')
  it('says nothing while more than 3 are left', () => {
    expect(lowUsageText(at(16), formatResetTime, now)).toBeNull()
  })
  it('warns from 3 left on, with the time new lookups come (Vietnam midnight)', () => {
    expect(lowUsageText(at(17), formatResetTime, now)).toBe(
      'Chỉ còn 3 lượt tra cứu hôm nay; lượt mới có từ 00:00 ngày 11/03/2026.',
    )
    expect(lowUsageText(at(20), formatResetTime, now)).toBe(
      'Đã hết lượt tra cứu hôm nay; lượt mới có từ 00:00 ngày 11/03/2026.',
    )
  })
  it('does not warn from a count that has already reset', () => {
    expect(lowUsageText(at(19), formatResetTime, Date.parse('2026-03-10T18:00:00Z'))).toBeNull()
  })
})
