import { CloseButton } from '@mantine/core'
import { formatAccuracy, type GpsState } from '../engine/gps.ts'

/** Over the map while GPS is on: how accurate the position is, or why there is none. */
export function GpsStatus({ gps, onStop }: { gps: GpsState; onStop: () => void }) {
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
  if (gps.status !== 'on' && gps.status !== 'locating') return null
  return (
    <div className="qh-gps-badge qh-floating" role="status" data-testid="gps-accuracy">
      <span className="qh-dot" aria-hidden />
      {gps.status === 'on' ? (
        <span>
          <span className="visually-hidden">Độ chính xác vị trí </span>
          {formatAccuracy(gps.fix.accuracy)}
          {gps.following ? '' : ' · không theo dõi'}
        </span>
      ) : (
        <span>Đang định vị…</span>
      )}
    </div>
  )
}
