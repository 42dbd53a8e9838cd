import type { ReactNode } from 'react'
import { ActionIcon } from '@mantine/core'
import {
  IconCurrentLocation,
  IconCurrentLocationOff,
  IconMinus,
  IconPlus,
  IconRuler2,
  IconSatellite,
  IconShare,
  IconStack2,
} from '@tabler/icons-react'
import type { GpsState } from '../engine/gps.ts'

/** The panels the toolbar opens over the map; one at a time. */
export type MapPanel = 'layers' | 'measure' | 'position'

/** What the locate button says and shows for a GPS state. */
export function gpsButton(gps: GpsState): { on: boolean; label: string; paused: boolean } {
  const paused = gps.status === 'on' && !gps.following
  const label =
    gps.status === 'off' || gps.status === 'error'
      ? 'Bật định vị GPS'
      : paused
        ? 'Về vị trí của tôi'
        : 'Tắt định vị GPS'
  return { on: gps.status === 'on' || gps.status === 'locating', label, paused }
}

function PanelButton(props: {
  panel: MapPanel
  open: MapPanel | null
  onOpen: (p: MapPanel | null) => void
  label: string
  title: string
  icon: ReactNode
}) {
  const pressed = props.open === props.panel
  return (
    <ActionIcon
      size={46}
      radius="xl"
      variant={pressed ? 'filled' : 'default'}
      aria-label={props.label}
      title={props.title}
      aria-pressed={pressed}
      onClick={() => props.onOpen(pressed ? null : props.panel)}
      data-testid={`${props.panel}-button`}
    >
      {props.icon}
    </ActionIcon>
  )
}

/**
 * The map's tool buttons down the side: zoom, GPS, the panels, sharing, and whatever other features add
 * (`children`, after the app's own).
 */
export function MapToolbar(props: {
  onZoom: (delta: number) => void
  gps: GpsState
  onGps: () => void
  panel: MapPanel | null
  onPanel: (p: MapPanel | null) => void
  onShare: () => void
  children?: ReactNode
}) {
  const gps = gpsButton(props.gps)
  return (
    <div className="qh-controls" role="toolbar" aria-label="Công cụ bản đồ" aria-orientation="vertical">
      <ActionIcon
        size={46}
        radius="xl"
        variant="default"
        aria-label="Phóng to"
        title="Phóng to"
        onClick={() => props.onZoom(1)}
      >
        <IconPlus size={24} />
      </ActionIcon>
      <ActionIcon
        size={46}
        radius="xl"
        variant="default"
        aria-label="Thu nhỏ"
        title="Thu nhỏ"
        onClick={() => props.onZoom(-1)}
      >
        <IconMinus size={24} />
      </ActionIcon>
      <ActionIcon
        size={46}
        radius="xl"
        variant={gps.on ? 'filled' : 'default'}
        aria-label={gps.label}
        title={gps.label}
        aria-pressed={gps.on}
        onClick={props.onGps}
        data-testid="gps-button"
      >
        {gps.paused ? <IconCurrentLocationOff size={24} /> : <IconCurrentLocation size={24} />}
      </ActionIcon>
      <PanelButton
        panel="position"
        open={props.panel}
        onOpen={props.onPanel}
        label="Nguồn định vị: GPS điện thoại hoặc máy thu GNSS"
        title="Nguồn định vị"
        icon={<IconSatellite size={24} />}
      />
      <PanelButton
        panel="layers"
        open={props.panel}
        onOpen={props.onPanel}
        label="Lớp bản đồ và độ đậm quy hoạch"
        title="Lớp bản đồ"
        icon={<IconStack2 size={24} />}
      />
      <PanelButton
        panel="measure"
        open={props.panel}
        onOpen={props.onPanel}
        label="Đo chiều dài và diện tích"
        title="Đo"
        icon={<IconRuler2 size={24} />}
      />
      <ActionIcon
        size={46}
        radius="xl"
        variant="default"
        aria-label="Chia sẻ khung bản đồ này"
        title="Chia sẻ"
        onClick={props.onShare}
      >
        <IconShare size={24} />
      </ActionIcon>
      {props.children}
    </div>
  )
}
