import { useEffect, useRef } from 'react'
import { useAtomValue } from 'jotai'
import { Notifications, notifications } from '@mantine/notifications'
import { store } from '../../../lib/store.ts'
import { toastsAtom } from '../atoms.ts'
import { removeToast, TOAST_DURATION_MS } from '../toast.ts'

/** Shows the toast list with Mantine at the top of the screen for 5 s each. */
export default function ToastStack() {
  const toasts = useAtomValue(toastsAtom)
  const shown = useRef(new Set<string>())

  useEffect(() => {
    const ids = new Set(toasts.map((t) => t.id))
    for (const t of toasts) {
      if (shown.current.has(t.id)) continue
      shown.current.add(t.id)
      notifications.show({
        id: t.id,
        message: t.title,
        color: t.color,
        autoClose: TOAST_DURATION_MS,
        withBorder: true,
        onClose: () => removeToast(store, t.id),
      })
    }
    for (const id of shown.current) {
      if (ids.has(id)) continue
      shown.current.delete(id)
      notifications.hide(id)
    }
  }, [toasts])

  return <Notifications position="top-center" zIndex={2000} limit={4} />
}
