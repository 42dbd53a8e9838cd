import { CloseButton } from '@mantine/core'
import { PositionStatusLine, type PositionSnapshot } from '../../position/index.ts'
import type { GpsState } from '../engine/gps.ts'

/** Over the map while GPS is on: the position's one-line readout (red when stale), or why there is none. */
export function GpsStatus({
  gps,
  position,
  onStop,
}: {
  gps: GpsState
  position: PositionSnapshot
  onStop: () => void
}) {
  if (gps.status === 'error') {
    return (
      <div className="qh-alert qh-floating" role="alert" data-testid="gps-error">
        <CloseButton
          size="lg"
          aria-label="Đóng thông báo định vị"
          onClick={onStop}
          style={{ float: 'right', marginLeft: 8 }}
        />
        <strong>Không định vị được.</strong> {gps.message}
      </div>
    )
  }
  if (gps.status === 'off') return null
  return (
    <div className="qh-gps-badge qh-floating" data-testid="gps-accuracy">
      <PositionStatusLine position={position} />
      {gps.status === 'on' && !gps.following && <span className="visually-hidden">Bản đồ không theo vị trí.</span>}
    </div>
  )
}
