import { useState } from 'react'
import { Badge, Button, Group, Paper, Stack, Text } from '@mantine/core'
import { IconRefresh, IconSend, IconTrash } from '@tabler/icons-react'
import { formatDateTime } from '../../../lib/format/format.ts'
import { store } from '../../../lib/store.ts'
import { useOnline } from '../../../lib/use-online.ts'
import { ConfirmDialog } from '../../../components/ConfirmDialog.tsx'
import { photosAtom } from '../../valuation/index.ts'
import { removePhoto } from '../../valuation/index.ts'
import { removeItem, retryItem, type OutboxItem } from '#core/outbox/queue.ts'
import { unsent } from '#core/outbox/runner.ts'
import { sendOutboxNow } from '../triggers.ts'
import { useOutboxItems } from '../use-outbox.ts'

function statusOf(item: OutboxItem, online: boolean): { text: string; color: string } {
  if (item.status === 'sent') return { text: 'Đã gửi', color: 'green' }
  if (item.status === 'failed') return { text: 'Lỗi', color: 'red' }
  if (item.status === 'sending') return { text: 'Đang gửi…', color: 'sky' }
  return { text: online ? 'Đang chờ gửi' : 'Đang chờ gửi (khi có mạng)', color: 'yellow' }
}

/** Photos waiting for a connection, sent ones, and the ones the server refused, with retry and delete. */
export function QueueList() {
  const items = useOutboxItems()
  const online = useOnline()
  const [deleting, setDeleting] = useState<OutboxItem | null>(null)
  const [sending, setSending] = useState(false)
  if (!items) return null
  const waiting = unsent(items)

  async function sendAll() {
    setSending(true)
    try {
      await sendOutboxNow()
    } finally {
      setSending(false)
    }
  }

  async function retry(item: OutboxItem) {
    await retryItem(item.id)
    if (online) await sendOutboxNow()
  }

  return (
    <Stack gap="sm">
      <Text size="sm" c="dimmed">
        Ảnh chụp khi không có sóng được giữ trên máy cùng thông tin định giá và tự gửi khi có mạng lại (kể cả khi mở lại
        ứng dụng). Mỗi ảnh chỉ được lưu một lần trên máy chủ, dù gửi lại bao nhiêu lần.
      </Text>
      {items.length === 0 ? (
        <Text size="sm">Không có ảnh nào đang chờ.</Text>
      ) : (
        <>
          <Group>
            <Button
              leftSection={<IconSend size={18} aria-hidden />}
              disabled={!online || waiting.length === 0}
              loading={sending}
              onClick={() => void sendAll()}
            >
              Gửi ngay ({waiting.length})
            </Button>
          </Group>
          <Stack gap="xs" component="ul" style={{ listStyle: 'none', padding: 0, margin: 0 }} aria-label="Ảnh chờ gửi">
            {items.map((item) => {
              const s = statusOf(item, online)
              return (
                <Paper
                  key={item.id}
                  withBorder
                  p="xs"
                  component="li"
                  data-testid="queue-item"
                  data-status={item.status}
                >
                  <Group wrap="nowrap" align="flex-start" gap="sm">
                    {item.photo.thumbnail ? (
                      <img
                        src={item.photo.thumbnail}
                        alt=""
                        width={64}
                        height={64}
                        style={{ objectFit: 'cover', borderRadius: 6, flex: 'none' }}
                      />
                    ) : null}
                    <Stack gap={2} style={{ flex: 1, minWidth: 0 }}>
                      <Group gap={6} wrap="wrap">
                        <Text size="sm" fw={600} truncate>
                          {item.photo.name}
                        </Text>
                        <Badge color={s.color} variant="light" style={{ flex: 'none', textTransform: 'none' }}>
                          {s.text}
                        </Badge>
                      </Group>
                      <Text size="xs" c="dimmed">
                        {item.label ? `${item.label} · ` : ''}chụp lúc {formatDateTime(item.createdAt)}
                        {item.attempts > 0 ? ` · đã thử ${item.attempts} lần` : ''}
                      </Text>
                      {item.error && item.status !== 'sent' ? (
                        <Text size="xs" c={item.status === 'failed' ? 'red' : 'dimmed'}>
                          {item.error}
                        </Text>
                      ) : null}
                      <Group gap={4} mt={2}>
                        {item.status === 'failed' || (item.status === 'pending' && item.error) ? (
                          <Button
                            size="compact-sm"
                            variant="light"
                            leftSection={<IconRefresh size={16} aria-hidden />}
                            onClick={() => void retry(item)}
                          >
                            Gửi lại
                          </Button>
                        ) : null}
                        <Button
                          size="compact-sm"
                          variant="subtle"
                          color="red"
                          leftSection={<IconTrash size={16} aria-hidden />}
                          onClick={() => setDeleting(item)}
                        >
                          Xoá
                        </Button>
                      </Group>
                    </Stack>
                  </Group>
                </Paper>
              )
            })}
          </Stack>
        </>
      )}
      <ConfirmDialog
        opened={deleting !== null}
        title="Xoá ảnh khỏi hàng chờ?"
        confirm="Xoá ảnh"
        onCancel={() => setDeleting(null)}
        onConfirm={() => {
          const item = deleting
          setDeleting(null)
          if (!item) return
          // The photo leaves the valuation form too: the queue is where the form's photos are kept.
          store.set(photosAtom, (list) => removePhoto(list, item.id))
          void removeItem(item.id)
        }}
      >
        {deleting?.status === 'sent'
          ? 'Ảnh đã ở trên máy chủ; nó chỉ bị bỏ khỏi phiếu định giá trên máy này.'
          : 'Ảnh chưa được gửi sẽ bị xoá khỏi máy và khỏi phiếu định giá.'}
      </ConfirmDialog>
    </Stack>
  )
}
