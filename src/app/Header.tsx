import { useAtomValue } from 'jotai'
import { Group } from '@mantine/core'
import { Link } from '@tanstack/react-router'
import { AccountMenu } from '../features/auth/shell.ts'
import { isSessionValid, sessionAtom } from '../features/auth/index.ts'
import { OfflineLink } from '../features/offline/shell.ts'
import { UsageCounter } from '../features/usage/shell.ts'
import { AppNav } from './AppNav.tsx'
import { ColorModeToggle } from './ColorModeToggle.tsx'

export function Header() {
  const loggedIn = isSessionValid(useAtomValue(sessionAtom))
  return (
    <header className="app-header">
      <Link to="/" className="app-brand" aria-label="Quy hoạch VN — trang chủ">
        <img src="/icon.svg" alt="" width={32} height={32} />
        <span className="brand-name">Quy hoạch VN</span>
      </Link>
      <AppNav placement="top" />
      <Group gap={8} ml="auto" wrap="nowrap">
        <UsageCounter loggedIn={loggedIn} />
        <span className="header-wide-only">
          <OfflineLink />
        </span>
        <span className="header-wide-only">
          <ColorModeToggle />
        </span>
        <AccountMenu />
      </Group>
    </header>
  )
}
