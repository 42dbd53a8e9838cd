import { lazy, Suspense, useEffect } from 'react'
import { useAtomValue } from 'jotai'
import { api } from '../../../lib/api/index.ts'
import { authDialogAtom, isSessionValid, sessionAtom } from '../atoms.ts'

const AuthDialogs = lazy(() => import('./AuthDialogs.tsx'))

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
  return (
    <Suspense fallback={null}>
      <AuthDialogs />
    </Suspense>
  )
}
