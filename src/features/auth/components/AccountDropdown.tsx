import '@mantine/core/styles/Popover.css'
import '@mantine/core/styles/Menu.css'
import '@mantine/core/styles/ModalBase.css'
import '@mantine/core/styles/Modal.css'
import '@mantine/core/styles/Overlay.css'
import { useState } from 'react'
import { ActionIcon, Button, Group, Menu, Modal, Stack, Text } from '@mantine/core'
import { IconLogout, IconUserCircle } from '@tabler/icons-react'
import { authApi } from '../index.ts'
import { unsentPhotoCount } from '../unsent-photos.ts'

export default function AccountDropdown({ userName }: { userName: string }) {
  // Photos still waiting in the outbox when "Đăng xuất" was chosen; the dialog asks before deleting them.
  const [unsent, setUnsent] = useState(0)
  const logout = async () => {
    const count = await unsentPhotoCount().catch(() => 0)
    if (count > 0) setUnsent(count)
    else await authApi.logout()
  }
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
            onClick={() => void logout()}
            style={{ minHeight: 44 }}
          >
            Đăng xuất
          </Menu.Item>
        </Menu.Dropdown>
      </Menu>
      <Modal
        opened={unsent > 0}
        onClose={() => setUnsent(0)}
        title="Còn ảnh chưa gửi"
        centered
        closeButtonProps={{ 'aria-label': 'Đóng' }}
      >
        <Stack gap="md">
          <Text size="sm">
            {unsent} ảnh chưa được gửi lên máy chủ. Đăng xuất sẽ xoá chúng khỏi máy này, cùng lịch sử tra cứu và bản
            nháp định giá.
          </Text>
          <Group justify="flex-end">
            <Button variant="default" onClick={() => setUnsent(0)} data-autofocus>
              Ở lại để gửi
            </Button>
            <Button
              color="red"
              data-testid="confirm-logout"
              onClick={() => {
                setUnsent(0)
                void authApi.logout()
              }}
            >
              Xoá ảnh và đăng xuất
            </Button>
          </Group>
        </Stack>
      </Modal>
    </>
  )
}
