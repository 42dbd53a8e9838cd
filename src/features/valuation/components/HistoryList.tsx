import { useEffect, useState } from 'react'
import { Button, Group, Paper, Stack, Text, Title, UnstyledButton } from '@mantine/core'
import { IconTrash } from '@tabler/icons-react'
import { formatDateTime, formatMoneyShort } from '../../../lib/format/format.ts'
import { list, remove, subscribeHistory, type HistoryEntry } from '../../history/index.ts'
import { useStore } from 'jotai'
import { deviceStorageTexts } from '#core/messages.ts'
import { pushToast } from '../../notifications/index.ts'

const PAGE = 10

function useValuationHistory(): HistoryEntry<'valuation'>[] | null {
  const [entries, setEntries] = useState<HistoryEntry<'valuation'>[] | null>(null)
  const store = useStore()
  useEffect(() => {
    let alive = true
    const load = () =>
      void list('valuation').then(
        (rows) => alive && setEntries(rows),
        () => {
          pushToast(store, 'warning', deviceStorageTexts.HISTORY_UNAVAILABLE)
          if (alive) setEntries([])
        },
      )
    load()
    const stop = subscribeHistory(load)
    return () => {
      alive = false
      stop()
    }
  }, [store])
  return entries
}

/** Past valuations kept on this device, newest first; opening one does not count a lookup. */
export function HistoryList({
  onOpen,
  openId,
}: {
  onOpen: (entry: HistoryEntry<'valuation'>) => void
  openId: string | null
}) {
  const entries = useValuationHistory()
  const [shown, setShown] = useState(PAGE)
  const [confirmClear, setConfirmClear] = useState(false)
  if (!entries || entries.length === 0) return null

  async function clearValuations() {
    for (const e of entries ?? []) await remove(e.id)
    setConfirmClear(false)
  }

  return (
    <Paper withBorder p="md" component="section" aria-labelledby="history-title" className="no-print">
      <Stack gap="xs">
        <Group justify="space-between">
          <Title order={2} size="h4" id="history-title">
            Lịch sử định giá ({entries.length})
          </Title>
          {confirmClear ? (
            <Group gap="xs">
              <Button size="compact-sm" color="red" onClick={() => void clearValuations()}>
                Xoá hết
              </Button>
              <Button size="compact-sm" variant="default" onClick={() => setConfirmClear(false)}>
                Không xoá
              </Button>
            </Group>
          ) : (
            <Button size="compact-sm" variant="subtle" color="red" onClick={() => setConfirmClear(true)}>
              Xoá lịch sử
            </Button>
          )}
        </Group>
        <Text size="xs" c="dimmed">
          Lưu trên thiết bị này, xem lại được cả khi không có mạng.
        </Text>
        <Stack gap={4} role="list" aria-label="Các lần định giá trước">
          {entries.slice(0, shown).map((e) => {
            const m = e.result.data.market_estimate
            return (
              <div key={e.id} role="listitem" className="history-row" data-current={e.id === openId || undefined}>
                <UnstyledButton
                  className="pick-row"
                  onClick={() => onOpen(e)}
                  aria-label={`Xem lại: ${e.label}, ${formatDateTime(e.at)}`}
                >
                  <Text fw={600} size="sm" truncate>
                    {e.label}
                  </Text>
                  <Text size="xs" c="dimmed">
                    {formatDateTime(e.at)} · {m ? formatMoneyShort(m.mid_vnd) : 'chưa có giá thị trường'}
                    {e.result.data.state_price ? ` · ${e.result.data.state_price.position}` : ''}
                  </Text>
                </UnstyledButton>
                <Button
                  variant="subtle"
                  color="gray"
                  size="compact-md"
                  aria-label={`Xoá: ${e.label}, ${formatDateTime(e.at)}`}
                  onClick={() => void remove(e.id)}
                >
                  <IconTrash size={18} aria-hidden />
                </Button>
              </div>
            )
          })}
        </Stack>
        {entries.length > shown ? (
          <Group>
            <Button variant="subtle" size="compact-sm" onClick={() => setShown((n) => n + PAGE)}>
              Xem thêm
            </Button>
          </Group>
        ) : null}
      </Stack>
    </Paper>
  )
}
