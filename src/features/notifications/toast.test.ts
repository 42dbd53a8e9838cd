import { beforeEach, describe, expect, it } from 'vitest'
import { createStore } from 'jotai'
import { errorTexts } from '../../lib/errors.ts'
import { storageKeys } from '../../lib/storage-keys.ts'
import { toastStorage, toastsAtom } from './atoms.ts'
import { clearToasts, codeToast, pushToast, removeToast, toastColors } from './toast.ts'

beforeEach(() => localStorage.clear())

describe('toasts', () => {
  it('colours errors red, successes green, warnings yellow and information blue', () => {
    expect(toastColors).toEqual({ error: 'red', success: 'green', warning: 'yellow', info: 'blue' })
  })

  it('keeps the list of {id, title, color, at} in localStorage', () => {
    const store = createStore()
    const t = pushToast(store, 'info', 'Xin chào')
    expect(JSON.parse(localStorage.getItem(storageKeys.toasts)!)).toEqual([
      { id: t.id, title: 'Xin chào', color: 'blue', at: t.at },
    ])
  })

  it('shows one toast per message while it is on screen, however many times it is raised', () => {
    const store = createStore()
    const a = pushToast(store, 'error', 'E-mail này đã được đăng ký.')
    const b = pushToast(store, 'error', 'E-mail này đã được đăng ký.')
    codeToast(store, 'NG', ['E-mail này đã được đăng ký.'])
    expect(b.id).toBe(a.id)
    expect(store.get(toastsAtom).map((t) => t.title)).toEqual(['E-mail này đã được đăng ký.'])
  })

  it('reads back a toast raised just before a reload, and never one left from an earlier visit', () => {
    const now = Date.now()
    localStorage.setItem(
      storageKeys.toasts,
      JSON.stringify([
        { id: 'cu', title: 'Đăng ký thành công.', color: 'green', at: now - 60_000 },
        { id: 'khong-gio', title: 'Đăng ký thành công.', color: 'green' },
        { id: 'moi', title: 'Đã lưu.', color: 'green', at: now - 1000 },
      ]),
    )
    expect(toastStorage.getItem(storageKeys.toasts, []).map((t) => t.id)).toEqual(['moi'])
  })

  it('removes one toast by id, or all of them', () => {
    const store = createStore()
    const a = pushToast(store, 'error', 'A')
    pushToast(store, 'success', 'B')
    pushToast(store, 'warning', 'C')
    removeToast(store, a.id)
    expect(store.get(toastsAtom).map((t) => t.title)).toEqual(['B', 'C'])
    clearToasts(store)
    expect(store.get(toastsAtom)).toEqual([])
  })

  it('code rule: a failed status shows each message as a red toast', () => {
    const store = createStore()
    codeToast(store, 'NG', ['Sai mật khẩu.', 'Thử lại sau.'])
    expect(store.get(toastsAtom).map((t) => [t.color, t.title])).toEqual([
      ['red', 'Sai mật khẩu.'],
      ['red', 'Thử lại sau.'],
    ])
  })

  it('code rule: no message at all falls back to the red UNKNOWN text, even with status OK', () => {
    const store = createStore()
    codeToast(store, 'OK', [])
    removeToast(store, store.get(toastsAtom)[0]!.id)
    codeToast(store, 'NG', [''])
    expect(store.get(toastsAtom).map((t) => [t.color, t.title])).toEqual([['red', errorTexts.UNKNOWN]])
  })

  it('code rule: a success shows only its first message, in green', () => {
    const store = createStore()
    codeToast(store, 'OK', ['Đăng nhập thành công.', 'Bỏ qua.'])
    expect(store.get(toastsAtom).map((t) => [t.color, t.title])).toEqual([['green', 'Đăng nhập thành công.']])
  })

  it('code rule: a success dismisses the error toasts still shown from the attempt before', () => {
    const store = createStore()
    codeToast(store, 'NG', ['Sai mật khẩu.'])
    pushToast(store, 'warning', 'Vui lòng đăng nhập.')
    codeToast(store, 'OK', ['Đăng nhập thành công.'])
    expect(store.get(toastsAtom).map((t) => [t.color, t.title])).toEqual([
      ['yellow', 'Vui lòng đăng nhập.'],
      ['green', 'Đăng nhập thành công.'],
    ])
  })
})
