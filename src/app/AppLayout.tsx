import { useEffect } from 'react'
import { useAtomValue, useSetAtom } from 'jotai'
import { Outlet, useMatches } from '@tanstack/react-router'
import { forcedColorSchemeAtom, forcedSchemeOf } from './color-scheme.ts'
import { isLoadingAtom } from '../lib/api/atoms.ts'
import { AuthDialogsHost } from '../features/auth/components/AuthDialogsHost.tsx'
import { Toasts } from '../features/notifications/components/Toasts.tsx'
import { OfflineBanner } from '../features/offline/components/OfflineBanner.tsx'
import { UpdatePrompt } from '../features/update/components/UpdatePrompt.tsx'
import { Header } from './Header.tsx'
import { LoadingBar } from './LoadingBar.tsx'

export function AppLayout() {
  const loading = useAtomValue(isLoadingAtom)
  const matches = useMatches()
  const setForced = useSetAtom(forcedColorSchemeAtom)
  const forced = forcedSchemeOf(matches)
  useEffect(() => setForced(forced), [forced, setForced])
  return (
    <div className="app-shell">
      <a href="#main" className="visually-hidden">
        Bỏ qua đến nội dung chính
      </a>
      <LoadingBar />
      <Header />
      <OfflineBanner />
      <main id="main" className="app-main" aria-busy={loading}>
        <Outlet />
      </main>
      <Toasts />
      <UpdatePrompt />
      <AuthDialogsHost />
    </div>
  )
}
