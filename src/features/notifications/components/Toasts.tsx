import { lazy, Suspense, useState } from 'react'
import { useAtomValue } from 'jotai'
import { toastsAtom } from '../atoms.ts'

// Mantine's notifications (and their transitions) load with the first toast, not with the app.
const ToastStack = lazy(() => import('./ToastStack.tsx'))

/**
 * Shows the toast list at the top of the screen for 5 s each, and mirrors the newest one in a live
 * region so screen readers announce it.
 */
export function Toasts() {
  const toasts = useAtomValue(toastsAtom)
  // Once shown, the stack stays mounted so its toasts can leave with their transition.
  const [needed, setNeeded] = useState(false)
  if (!needed && toasts.length > 0) setNeeded(true)
  const last = toasts.at(-1)
  return (
    <>
      {needed && (
        <Suspense fallback={null}>
          <ToastStack />
        </Suspense>
      )}
      <div className="visually-hidden" role="status" aria-live="polite" aria-atomic="true">
        {last?.title ?? ''}
      </div>
    </>
  )
}
