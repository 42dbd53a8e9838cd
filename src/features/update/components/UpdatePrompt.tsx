import { useAtom } from 'jotai'
import { Button, Group, Notification } from '@mantine/core'
import { IconRefresh } from '@tabler/icons-react'
import { updatePromptAtom } from '../atoms.ts'
import { activateNewBuild } from '../service-worker.ts'

/** Offered instead of an automatic reload when the page holds typed input: the user reloads when ready. */
export function UpdatePrompt() {
  const [open, setOpen] = useAtom(updatePromptAtom)
  if (!open) return null
  return (
    <div className="update-banner" role="region" aria-label="Có phiên bản mới">
      <Notification
        color="sky"
        title="Có phiên bản mới — tải lại"
        onClose={() => setOpen(false)}
        withBorder
        closeButtonProps={{ 'aria-label': 'Để sau' }}
      >
        <Group justify="space-between" gap="xs" mt={4}>
          <span>Lưu hoặc gửi nội dung đang nhập trước khi tải lại.</span>
          <Button
            size="sm"
            leftSection={<IconRefresh size={18} aria-hidden />}
            onClick={() => void activateNewBuild()}
            data-testid="update-reload"
          >
            Tải lại
          </Button>
        </Group>
      </Notification>
    </div>
  )
}
