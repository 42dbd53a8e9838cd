import { lazy, Suspense, useMemo, useState } from 'react'
import { createPortal } from 'react-dom'
import { ActionIcon } from '@mantine/core'
import { IconDownload } from '@tabler/icons-react'
import type { MapController } from '../engine/map-controller.ts'
import { createBoxTools } from './map-box.ts'

// The panel and the download code load on first use, so the map's first paint does not wait for them.
const SaveAreaPanel = lazy(() => import('./SaveAreaPanel.tsx'))

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
