import { useCallback, useEffect, useState } from 'react'
import { Button, Group, Paper, Progress, Stack, Text, Title } from '@mantine/core'
import { IconLock } from '@tabler/icons-react'
import { useOnline } from '../../../lib/use-online.ts'
import { formatBytes } from '../format.ts'
import { requestPersistence, storageInfo, type StorageInfo } from '../storage.ts'
import { getRecentTileCap, recentTileStats, setRecentTileCap, type RecentTileStats } from '../sw-client.ts'

const MB = 1024 * 1024
const capChoices = [
  { value: '', label: 'Tự động (tối đa 200 MB)' },
  { value: String(50 * MB), label: '50 MB' },
  { value: String(100 * MB), label: '100 MB' },
  { value: String(200 * MB), label: '200 MB' },
  { value: String(500 * MB), label: '500 MB' },
]

/** Storage on this device: used and available, whether it is kept for good, and the recent-map cache. */
export function StorageCard() {
  const online = useOnline()
  const [info, setInfo] = useState<StorageInfo | null>(null)
  const [recent, setRecent] = useState<RecentTileStats | null>(null)
  const [cap, setCap] = useState('')

  const refresh = useCallback(async () => {
    setInfo(await storageInfo())
    setRecent(await recentTileStats())
  }, [])
  useEffect(() => {
    void refresh()
    void getRecentTileCap().then((c) => setCap(c ? String(c) : ''))
  }, [refresh])

  const share = info && info.quota > 0 ? (info.usage / info.quota) * 100 : 0
  return (
    <Paper withBorder p="md" component="section" aria-labelledby="storage-title">
      <Stack gap="xs">
        <Group justify="space-between">
          <Title order={2} size="h4" id="storage-title">
            Bộ nhớ trên máy
          </Title>
          <Text
            size="sm"
            c={online ? 'var(--qh-text-success)' : 'var(--qh-text-warning)'}
            fw={600}
            data-testid="connection-state"
          >
            {online ? 'Đang trực tuyến: dữ liệu mới từ máy chủ' : 'Ngoại tuyến: chỉ có dữ liệu đã lưu'}
          </Text>
        </Group>
        {info ? (
          <>
            <Progress value={share} size="md" aria-label="Dung lượng đã dùng" />
            <Text size="sm" data-testid="storage-usage">
              Đã dùng {formatBytes(info.usage)} / còn trống khoảng {formatBytes(Math.max(0, info.quota - info.usage))}
            </Text>
            <Group gap="xs">
              <Text size="sm" c="dimmed">
                {info.persisted
                  ? 'Trình duyệt giữ dữ liệu này lâu dài, không tự xoá khi thiếu chỗ.'
                  : 'Trình duyệt có thể xoá dữ liệu này khi máy thiếu chỗ.'}
              </Text>
              {info.persisted === false ? (
                <Button
                  size="compact-sm"
                  variant="light"
                  leftSection={<IconLock size={16} aria-hidden />}
                  onClick={() => void requestPersistence().then(refresh)}
                >
                  Xin giữ lâu dài
                </Button>
              ) : null}
            </Group>
          </>
        ) : (
          <Text size="sm" c="dimmed">
            Trình duyệt này không cho biết dung lượng lưu trữ.
          </Text>
        )}
        <label className="offline-cap">
          <Text size="sm" component="span" fw={600}>
            Bản đồ đã xem gần đây
          </Text>
          <Text size="sm" component="span" c="dimmed">
            {recent
              ? ` ${formatBytes(recent.bytes)} (${recent.count} ô), giới hạn ${formatBytes(recent.capBytes)}. `
              : ' '}
            Ô cũ nhất được xoá trước khi vượt giới hạn; khu vực đã lưu không bao giờ bị xoá tự động.
          </Text>
          <select
            value={cap}
            onChange={(e) => {
              const value = e.currentTarget.value
              setCap(value)
              void setRecentTileCap(value ? Number(value) : null).then(() => setTimeout(() => void refresh(), 300))
            }}
            aria-label="Giới hạn bộ nhớ cho bản đồ đã xem gần đây"
          >
            {capChoices.map((c) => (
              <option key={c.value} value={c.value}>
                {c.label}
              </option>
            ))}
          </select>
        </label>
      </Stack>
    </Paper>
  )
}
