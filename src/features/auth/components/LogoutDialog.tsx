import '@mantine/core/styles/ModalBase.css'
import '@mantine/core/styles/Modal.css'
import '@mantine/core/styles/Overlay.css'
import { useEffect, useState } from 'react'
import { Button, Group, Modal, Stack, Text } from '@mantine/core'
import { authApi } from '../index.ts'
import { unsentPhotoCount } from '../unsent-photos.ts'

/**
 * "Đăng xuất" asks what happens to this device's work: kept for the next login (one's own phone), or
 * cleared (a shared phone) with the photos still waiting to be sent counted, since they go with it.
 */
export function LogoutDialog({ opened, onClose }: { opened: boolean; onClose: () => void }) {
  const [unsent, setUnsent] = useState(0)
  useEffect(() => {
    if (opened) void unsentPhotoCount().then(setUnsent, () => setUnsent(0))
  }, [opened])
  const logout = (clearDevice: boolean) => {
    onClose()
    void authApi.logout({ clearDevice })
  }
  return (
    <Modal opened={opened} onClose={onClose} title="Đăng xuất" centered closeButtonProps={{ 'aria-label': 'Đóng' }}>
      <Stack gap="md" data-testid="logout-dialog">
        <Text size="sm">
          Lịch sử tra cứu, bản nháp định giá và ảnh trên máy này được giữ lại cho lần đăng nhập sau. Trên máy dùng
          chung, hãy xoá chúng khỏi máy.
        </Text>
        {unsent > 0 && (
          <Text size="sm" fw={600} data-testid="logout-unsent">
            {unsent} ảnh chưa được gửi lên máy chủ: xoá khỏi máy sẽ xoá cả những ảnh này.
          </Text>
        )}
        <Group justify="flex-end">
          <Button variant="default" color="red" onClick={() => logout(true)} data-testid="logout-clear">
            Xoá khỏi máy và đăng xuất
          </Button>
          <Button onClick={() => logout(false)} data-autofocus data-testid="logout-keep">
            Giữ lại và đăng xuất
          </Button>
        </Group>
      </Stack>
    </Modal>
  )
}
