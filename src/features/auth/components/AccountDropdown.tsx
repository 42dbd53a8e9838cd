import '@mantine/core/styles/Popover.css'
import '@mantine/core/styles/Menu.css'
import { useState } from 'react'
import { ActionIcon, Menu } from '@mantine/core'
import { IconLogout, IconUserCircle } from '@tabler/icons-react'
import { LogoutDialog } from './LogoutDialog.tsx'

export default function AccountDropdown({ userName }: { userName: string }) {
  const [asking, setAsking] = useState(false)
  return (
    <>
      <Menu position="bottom-end" withinPortal>
        <Menu.Target>
          <ActionIcon variant="light" size="xl" aria-label={`Tài khoản: ${userName}`} data-testid="account-menu">
            <IconUserCircle size={24} aria-hidden />
          </ActionIcon>
        </Menu.Target>
        <Menu.Dropdown>
          <Menu.Label>{userName}</Menu.Label>
          <Menu.Item
            leftSection={<IconLogout size={18} aria-hidden />}
            onClick={() => setAsking(true)}
            style={{ minHeight: 44 }}
          >
            Đăng xuất
          </Menu.Item>
        </Menu.Dropdown>
      </Menu>
      <LogoutDialog opened={asking} onClose={() => setAsking(false)} />
    </>
  )
}
