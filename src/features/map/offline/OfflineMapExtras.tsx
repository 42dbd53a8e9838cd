import { lazy, Suspense } from 'react'
import { useOnline } from '../../../lib/use-online.ts'
import type { LatLngZoom, Point } from '../../../lib/map-url.ts'
import type { OfflineTap } from './offline-tap.ts'

// Loaded only when there is something to show: the map's first paint carries none of it.
const OfflineTapPanel = lazy(() => import('./OfflineTapPanel.tsx'))
const MapDataStatus = lazy(() => import('./MapDataStatus.tsx'))

/**
 * On the map: the answer to an offline tap, and (offline, or the server unreachable) where the map's
 * data comes from and how old it is.
 */
export function OfflineMapExtras(props: {
  tap: OfflineTap
  unreachable: boolean
  view: LatLngZoom
  desktop: boolean
  shareUrl: string
  onCover: (px: number) => void
  onLookup: (p: Point) => void
}) {
  const online = useOnline()
  return (
    <Suspense fallback={null}>
      {props.tap.state ? (
        <OfflineTapPanel
          tap={props.tap}
          desktop={props.desktop}
          shareUrl={props.shareUrl}
          onCover={props.onCover}
          onLookup={props.onLookup}
        />
      ) : null}
      {online && !props.unreachable ? null : <MapDataStatus view={props.view} unreachable={online} />}
    </Suspense>
  )
}
