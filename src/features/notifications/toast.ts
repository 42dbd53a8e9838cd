import type { Store } from '../../lib/store.ts'
import { errorTexts } from '../../lib/errors.ts'
import { TOAST_DURATION_MS, toastsAtom, type Toast, type ToastColor } from './atoms.ts'

export { TOAST_DURATION_MS }

export const toastColors = {
  error: 'red',
  success: 'green',
  warning: 'yellow',
  info: 'blue',
} as const satisfies Record<string, ToastColor>
export type ToastKind = keyof typeof toastColors

let seq = 0
function newId(): string {
  seq += 1
  return `t${Date.now().toString(36)}-${seq}`
}

/**
 * Shows a toast; one per event: the same message still on screen is not shown again (a form sent
 * twice, a failure said by two layers), the one on screen is returned instead.
 */
export function pushToast(store: Store, kind: ToastKind, title: string): Toast {
  const color = toastColors[kind]
  const same = store.get(toastsAtom).find((t) => t.title === title && t.color === color)
  if (same) return same
  const toast: Toast = { id: newId(), title, color, at: Date.now() }
  store.set(toastsAtom, (list) => [...list, toast])
  return toast
}

export function removeToast(store: Store, id: string): void {
  store.set(toastsAtom, (list) => list.filter((t) => t.id !== id))
}

export function clearToasts(store: Store): void {
  store.set(toastsAtom, [])
}

/**
 * The code-based rule for account actions: a failed status or no message shows every message as a red
 * toast (UNKNOWN when there is none); a success shows its first message in green and dismisses the red ones.
 */
export function codeToast(store: Store, status: 'OK' | 'NG', messages: readonly string[]): void {
  const texts = messages.filter((m) => m.trim() !== '')
  if (status !== 'OK' || texts.length === 0) {
    for (const text of texts.length > 0 ? texts : [errorTexts.UNKNOWN]) pushToast(store, 'error', text)
    return
  }
  // A success ends what a failure before it said ("Sai mật khẩu" then "Đăng nhập thành công"): the stale red toasts go.
  store.set(toastsAtom, (list) => list.filter((t) => t.color !== toastColors.error))
  pushToast(store, 'success', texts[0]!)
}
