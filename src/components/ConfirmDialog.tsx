import '@mantine/core/styles/ModalBase.css'
import '@mantine/core/styles/Modal.css'
import '@mantine/core/styles/Overlay.css'
import type { ReactNode } from 'react'
import { Button, Group, Modal, Stack, Text } from '@mantine/core'

/** "Are you sure?" before something that cannot be undone (deleting a saved area, a queued photo, the history). */
export function ConfirmDialog(props: {
  opened: boolean
  title: string
  children: ReactNode
  confirm: string
  onConfirm: () => void
  onCancel: () => void
}) {
  return (
    <Modal
      opened={props.opened}
      onClose={props.onCancel}
      title={props.title}
      centered
      closeButtonProps={{ 'aria-label': 'Đóng' }}
    >
      <Stack gap="md">
        <Text size="sm">{props.children}</Text>
        <Group justify="flex-end">
          <Button variant="default" onClick={props.onCancel}>
            Không xoá
          </Button>
          <Button color="red" onClick={props.onConfirm} data-testid="confirm-delete">
            {props.confirm}
          </Button>
        </Group>
      </Stack>
    </Modal>
  )
}
