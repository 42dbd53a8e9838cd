import { beforeEach, describe, expect, it } from 'vitest'
import { createStore } from 'jotai'
import { errorTexts } from '../../lib/errors.ts'
import { storageKeys } from '../../lib/storage-keys.ts'
import { toastsAtom } from './atoms.ts'
import { clearToasts, codeToast, pushToast, removeToast, toastColors } from './toast.ts'

beforeEach(() => localStorage.clear())

describe('toasts', () => {
  it('colours errors red, successes green, warnings yellow and information blue', () => {
    expect(toastColors).toEqual({ error: 'red', success: 'green', warning: 'yellow', info: 'blue' })
  })

  it('keeps the list of {id, title, color} in localStorage', () => {
    const store = createStore()
    const t = pushToast(store, 'info', 'Xin chào')
    expect(JSON.parse(localStorage.getItem(storageKeys.toasts)!)).toEqual([
      { id: t.id, title: 'Xin chào', color: 'blue' },
    ])
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
    codeToast(store, 'NG', [''])
    expect(store.get(toastsAtom).map((t) => [t.color, t.title])).toEqual([
      ['red', errorTexts.UNKNOWN],
      ['red', errorTexts.UNKNOWN],
    ])
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
