import { lazy, Suspense } from 'react'
import { useAtom } from 'jotai'
import { ActionIcon, Button } from '@mantine/core'
import { IconLogin2, IconUserCircle } from '@tabler/icons-react'
import { isSessionValid, sessionAtom } from '../atoms.ts'
import { preloadAuthDialogs } from './AuthDialogsHost.tsx'

// The menu (and its positioning library) is only needed once someone is signed in.
const AccountDropdown = lazy(() => import('./AccountDropdown.tsx'))

const preload = () => void preloadAuthDialogs()

/** "Đăng nhập" when signed out; the account menu (name, log out) when signed in. */
export function AccountMenu() {
  const [session, setSession] = useAtom(sessionAtom)
  if (!isSessionValid(session)) {
    const open = () => setSession({ ...session, isOpenLogin: true })
    const intent = { onPointerEnter: preload, onPointerDown: preload, onFocus: preload }
    return (
      <>
        <Button visibleFrom="xs" leftSection={<IconLogin2 size={20} aria-hidden />} onClick={open} {...intent}>
          Đăng nhập
        </Button>
        <ActionIcon hiddenFrom="xs" size="xl" aria-label="Đăng nhập" onClick={open} {...intent}>
          <IconLogin2 size={22} aria-hidden />
        </ActionIcon>
      </>
    )
  }
  return (
    <Suspense
      fallback={
        <ActionIcon variant="light" size="xl" aria-label={`Tài khoản: ${session.userName}`} disabled>
          <IconUserCircle size={24} aria-hidden />
        </ActionIcon>
      }
    >
      <AccountDropdown userName={session.userName} />
    </Suspense>
  )
}
