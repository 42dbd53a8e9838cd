import { Suspense, useEffect, useState } from 'react'
import { useAtomValue } from 'jotai'
import { api } from '../../../lib/api/index.ts'
import { preloadable } from '../../../lib/preloadable.ts'
import { authDialogAtom, isSessionValid, sessionAtom } from '../atoms.ts'

const authDialogs = preloadable(() => import('./AuthDialogs.tsx'))

/**
 * Starts loading the dialogs' code when a person heads for "Đăng nhập" (pointer over or down, keyboard focus),
 * so the tap that follows opens the dialog at once. Not when the page is idle: the dialog's code with Mantine's
 * modal parts is a long task to compile, which a first screen most people never log in from would pay.
 */
export function preloadAuthDialogs(): Promise<void> {
  return authDialogs.preload().then(
    () => {},
    () => {},
  )
}

/** One opening of the dialogs: the loaded component for the whole of it, or the lazy one if not loaded yet. */
function OpenDialogs() {
  const [Dialogs] = useState(() => authDialogs.pick())
  return (
    <Suspense fallback={null}>
      <Dialogs />
    </Suspense>
  )
}

/** Mounts the account dialogs' code only once a dialog is asked for. */
export function AuthDialogsHost() {
  const session = useAtomValue(sessionAtom)
  const dialog = useAtomValue(authDialogAtom)
  const valid = isSessionValid(session)
  // A login in another tab also lets the calls waiting here continue.
  useEffect(() => {
    if (valid && api.waitingForLogin() > 0) api.resumeAfterLogin()
  }, [valid])
  if (!session.isOpenLogin && dialog === null) return null
  return <OpenDialogs />
}
