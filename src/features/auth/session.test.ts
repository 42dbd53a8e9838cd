import { beforeEach, describe, expect, it } from 'vitest'
import { createStore } from 'jotai'
import { storageKeys } from '../../lib/storage-keys.ts'
import { emptySession, isSessionValid, sessionAtom, type Session } from './atoms.ts'

const session: Session = {
  userName: 'Lan',
  token: 't',
  expiresAt: '2026-03-10T10:00:00+07:00',
  isLogin: true,
  isOpenLogin: false,
}

beforeEach(() => localStorage.clear())

describe('session', () => {
  it('counts a token as valid only while its expiry is later than now', () => {
    const expires = Date.parse(session.expiresAt)
    expect(isSessionValid(session, expires - 1)).toBe(true)
    expect(isSessionValid(session, expires)).toBe(false)
    expect(isSessionValid({ ...session, expiresAt: 'not a date' }, 0)).toBe(false)
    expect(isSessionValid({ ...session, isLogin: false }, 0)).toBe(false)
  })

  it('is kept in localStorage with userName, token, expiresAt, isLogin and isOpenLogin', () => {
    const store = createStore()
    store.set(sessionAtom, session)
    expect(JSON.parse(localStorage.getItem(storageKeys.session)!)).toEqual(session)
  })

  it('shows a login made in another tab through the storage event', () => {
    const store = createStore()
    const unsubscribe = store.sub(sessionAtom, () => {})
    expect(store.get(sessionAtom)).toEqual(emptySession)
    const other = JSON.stringify(session)
    localStorage.setItem(storageKeys.session, other)
    window.dispatchEvent(
      new StorageEvent('storage', { key: storageKeys.session, newValue: other, storageArea: localStorage }),
    )
    expect(store.get(sessionAtom)).toEqual(session)
    unsubscribe()
  })

  it('ignores a stored value that is not a session', () => {
    const store = createStore()
    localStorage.setItem(storageKeys.session, JSON.stringify({ token: 5 }))
    const unsubscribe = store.sub(sessionAtom, () => {})
    expect(store.get(sessionAtom)).toEqual(emptySession)
    unsubscribe()
  })

  it('does not reopen a login dialog left open on an earlier visit', () => {
    const store = createStore()
    localStorage.setItem(storageKeys.session, JSON.stringify({ ...emptySession, isOpenLogin: true }))
    const unsubscribe = store.sub(sessionAtom, () => {})
    expect(store.get(sessionAtom).isOpenLogin).toBe(false)
    unsubscribe()
  })

  it('keeps a login dialog asked for before the page first showed the session open once the page shows it', () => {
    const store = createStore()
    // At start an expired session is found and the dialog asked for before any component watches the session.
    store.set(sessionAtom, { ...emptySession, isOpenLogin: true })
    const unsubscribe = store.sub(sessionAtom, () => {})
    expect(store.get(sessionAtom)).toEqual({ ...emptySession, isOpenLogin: true })
    unsubscribe()
  })
})
