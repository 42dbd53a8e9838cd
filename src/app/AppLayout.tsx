import { Suspense, useEffect } from 'react'
import { useAtomValue, useSetAtom } from 'jotai'
import { Outlet, useMatches } from '@tanstack/react-router'
import { forcedColorSchemeAtom, forcedSchemeOf } from './color-scheme.ts'
import { isLoadingAtom } from '../lib/api/atoms.ts'
import { AuthDialogsHost } from '../features/auth/shell.ts'
import { Toasts } from '../features/notifications/shell.ts'
import { OfflineBanner } from '../features/offline/shell.ts'
import { UpdatePrompt } from '../features/update/shell.ts'
import { InstallPrompt, installEventAtom, isIosSafari } from '../features/install/index.ts'
import { AppNav } from './AppNav.tsx'
import { Header } from './Header.tsx'
import { LoadingBar } from './LoadingBar.tsx'

export function AppLayout() {
  const loading = useAtomValue(isLoadingAtom)
  const matches = useMatches()
  const setForced = useSetAtom(forcedColorSchemeAtom)
  const forced = forcedSchemeOf(matches)
  const canInstall = useAtomValue(installEventAtom) !== null || isIosSafari()
  useEffect(() => setForced(forced), [forced, setForced])
  return (
    <div className="app-shell">
      <a href="#main" className="visually-hidden">
        Bỏ qua đến nội dung chính
      </a>
      <LoadingBar />
      <Header />
      <OfflineBanner />
      {canInstall && (
        <Suspense fallback={null}>
          <InstallPrompt />
        </Suspense>
      )}
      <main id="main" className="app-main" aria-busy={loading}>
        <Outlet />
      </main>
      <AppNav placement="bottom" />
      <Toasts />
      <UpdatePrompt />
      <AuthDialogsHost />
    </div>
  )
}
