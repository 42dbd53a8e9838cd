import { ActionIcon, Button } from '@mantine/core'
import { IconSearch, IconX } from '@tabler/icons-react'
import { formatDecimal } from '../../../lib/geo/coordinates.ts'
import type { Selection } from '../selection.ts'
import type { LatLngZoom, Point } from '../../../lib/map-url.ts'
import { CoordinatePanel, type MeridianChoice } from './CoordinatePanel.tsx'

/** The point the coordinates are read at: the pin, else the chosen point, else the map's centre. */
export function readoutPoint(
  pin: Point | null,
  selection: Selection | null,
  view: LatLngZoom,
): { point: Point; label: 'Ghim' | 'Điểm đã chọn' | 'Tâm bản đồ' } {
  if (pin !== null) return { point: pin, label: 'Ghim' }
  if (selection) return { point: selection.point, label: 'Điểm đã chọn' }
  return { point: { lat: view.lat, lng: view.lng }, label: 'Tâm bản đồ' }
}

function PinBar({ pin, onLookup, onUnpin }: { pin: Point; onLookup: () => void; onUnpin: () => void }) {
  return (
    <div
      className="qh-panel qh-floating"
      style={{ marginBottom: 8, display: 'flex', alignItems: 'center', gap: 8, flexWrap: 'wrap' }}
      data-testid="pin-bar"
    >
      <span>
        <b>Ghim</b>
        <span className="qh-pin-coords">: {formatDecimal(pin)}</span>
      </span>
      <Button size="xs" onClick={onLookup} leftSection={<IconSearch size={16} aria-hidden />}>
        Tra cứu tại đây
      </Button>
      <ActionIcon size={36} variant="default" aria-label="Bỏ ghim" onClick={onUnpin}>
        <IconX size={18} />
      </ActionIcon>
    </div>
  )
}

/** Bottom left over the map: the dropped pin with its actions, and the coordinates (WGS-84 and VN-2000) of the point in focus. */
export function MapReadout(props: {
  pin: Point | null
  selection: Selection | null
  view: LatLngZoom
  compact: boolean
  onLookup: (p: Point) => void
  onUnpin: () => void
  onGoTo: (p: Point, said: string) => void
  /** Kept by the map screen, so the choice outlives this corner while the measure tool replaces it. */
  meridian: MeridianChoice
  onMeridian: (m: MeridianChoice) => void
}) {
  const { pin, selection } = props
  const readout = readoutPoint(pin, selection, props.view)
  const datasetMeridian =
    pin === null && selection?.status === 'ready' ? selection.result.location.vn2000.zone_meridian : undefined
  return (
    <div className="qh-bottom-left">
      {pin && <PinBar pin={pin} onLookup={() => props.onLookup(pin)} onUnpin={props.onUnpin} />}
      <CoordinatePanel
        point={readout.point}
        pointLabel={readout.label}
        datasetMeridian={datasetMeridian}
        choice={props.meridian}
        onChoice={props.onMeridian}
        compact={props.compact}
        onGoTo={props.onGoTo}
      />
    </div>
  )
}
