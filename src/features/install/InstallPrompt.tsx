import { useEffect, useState } from 'react'
import { useAtom } from 'jotai'
import { Button, CloseButton, Group, Paper, Text } from '@mantine/core'
import { IconDownload, IconShare2 } from '@tabler/icons-react'
import { storageKeys } from '../../lib/storage-keys.ts'
import { list, subscribeHistory } from '../history/index.ts'
import { installEventAtom, isIosSafari, runsInstalled } from './capture.ts'
import { shouldOfferInstall } from './moment.ts'

function useLookupCount(): number {
  const [n, setN] = useState(0)
  useEffect(() => {
    const load = () =>
      void list().then(
        (rows) => setN(rows.length),
        () => undefined,
      )
    load()
    return subscribeHistory(load)
  }, [])
  return n
}

const readDismissed = () => {
  const v = Number(localStorage.getItem(storageKeys.installDismissed))
  return Number.isFinite(v) && v > 0 ? v : null
}

/**
 * "Cài lên máy": offered once the user has had a lookup, through the browser's own prompt where there
 * is one, or as Share → "Thêm vào MH chính" steps on iPhone Safari; "Để sau" keeps it away for two weeks.
 */
export default function InstallPrompt() {
  const [event, setEvent] = useAtom(installEventAtom)
  const lookups = useLookupCount()
  const [dismissedAt, setDismissedAt] = useState(readDismissed)
  const iosSafari = isIosSafari()
  const show = shouldOfferInstall({
    installed: runsInstalled(),
    canPrompt: event !== null,
    iosSafari,
    lookups,
    dismissedAt,
    now: Date.now(),
  })
  if (!show) return null

  const later = () => {
    const now = Date.now()
    localStorage.setItem(storageKeys.installDismissed, String(now))
    setDismissedAt(now)
  }
  const install = async () => {
    if (!event) return
    await event.prompt()
    const { outcome } = await event.userChoice
    setEvent(null)
    if (outcome === 'dismissed') later()
  }

  return (
    <Paper
      className="install-prompt"
      shadow="md"
      withBorder
      p="sm"
      role="region"
      aria-label="Cài ứng dụng"
      data-testid="install-prompt"
    >
      <Group justify="space-between" wrap="nowrap" align="flex-start">
        <Text size="sm" fw={600}>
          Cài Quy hoạch VN lên máy: mở nhanh từ màn hình chính và dùng được khi mất sóng.
        </Text>
        <CloseButton aria-label="Để sau" onClick={later} />
      </Group>
      {event ? (
        <Group gap="xs" mt="xs">
          <Button size="sm" leftSection={<IconDownload size={18} aria-hidden />} onClick={() => void install()}>
            Cài đặt
          </Button>
          <Button size="sm" variant="subtle" onClick={later}>
            Để sau
          </Button>
        </Group>
      ) : (
        <Text size="sm" mt={4}>
          Trên iPhone: chạm <IconShare2 size={16} aria-label="Chia sẻ" style={{ verticalAlign: 'text-bottom' }} /> Chia
          sẻ ở thanh dưới của Safari, rồi chọn "Thêm vào MH chính".
        </Text>
      )}
    </Paper>
  )
}
