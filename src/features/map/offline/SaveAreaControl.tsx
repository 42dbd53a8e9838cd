import { lazy, Suspense, useMemo, useState } from 'react'
import { createPortal } from 'react-dom'
import { useAtom } from 'jotai'
import { ActionIcon, Button, Group, Text } from '@mantine/core'
import { IconDownload } from '@tabler/icons-react'
import { useOnline } from '../../../lib/use-online.ts'
import type { MapController } from '../engine/map-controller.ts'
import { createBoxTools } from './map-box.ts'
import { saveReminderAtom } from './save-reminder.ts'

// The panel and the download code load on first use, so the map's first paint does not wait for them.
const SaveAreaPanel = lazy(() => import('./SaveAreaPanel.tsx'))

// Inline: the map's offline stylesheet loads with the offline panels, which may not have been opened.
const offerStyle = {
  position: 'absolute',
  top: 'calc(var(--qh-gap) + 58px)',
  left: 'var(--qh-gap)',
  zIndex: 27,
  width: 'min(340px, calc(100% - 80px))',
  padding: '10px 12px',
} as const

/** Back online with a place the user asked to be reminded of: offers to save the area around it. */
function SaveReminderOffer({ ctrl, onSave }: { ctrl: MapController; onSave: () => void }) {
  const online = useOnline()
  const [reminder, setReminder] = useAtom(saveReminderAtom)
  if (!online || !reminder) return null
  const save = () => {
    ctrl.flyTo(reminder, reminder.zoom)
    setReminder(null)
    onSave()
  }
  return (
    <div
      className="qh-floating qh-panel"
      style={offerStyle}
      role="region"
      aria-label="Nhắc lưu khu vực"
      data-testid="save-reminder"
    >
      <Text size="sm" fw={600}>
        Đã có mạng: lưu khu vực bạn chạm lúc offline để lần sau dùng được khi mất sóng?
      </Text>
      <Group gap={6} mt={6}>
        <Button size="xs" onClick={save}>
          Lưu khu vực này
        </Button>
        <Button size="xs" variant="default" onClick={() => setReminder(null)}>
          Bỏ qua
        </Button>
      </Group>
    </div>
  )
}

/** The map's "Lưu khu vực offline" button and its panel (the panel goes over the map, beside the toolbar). */
export function SaveAreaControl({ ctrl }: { ctrl: MapController | null }) {
  const [open, setOpen] = useState(false)
  const host = ctrl?.target.parentElement
  const tools = useMemo(() => (ctrl ? createBoxTools(ctrl) : null), [ctrl])
  return (
    <>
      <ActionIcon
        size={46}
        radius="xl"
        variant={open ? 'filled' : 'default'}
        aria-label="Lưu khu vực offline"
        title="Lưu khu vực offline"
        aria-pressed={open}
        onClick={() => setOpen((o) => !o)}
        data-testid="save-area-button"
      >
        <IconDownload size={24} />
      </ActionIcon>
      {!open && ctrl && host
        ? createPortal(<SaveReminderOffer ctrl={ctrl} onSave={() => setOpen(true)} />, host)
        : null}
      {open && ctrl && tools && host
        ? createPortal(
            <Suspense fallback={null}>
              <SaveAreaPanel ctrl={ctrl} tools={tools} onClose={() => setOpen(false)} />
            </Suspense>,
            host,
          )
        : null}
    </>
  )
}
