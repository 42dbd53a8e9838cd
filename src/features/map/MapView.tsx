import 'ol/ol.css'
import './map.css'
import { lazy, Suspense, useCallback, useEffect, useRef, useState, type KeyboardEvent } from 'react'
import { useAtomValue } from 'jotai'
import { store } from '../../lib/store.ts'
import { formatDecimal } from '../../lib/geo/coordinates.ts'
import { isSessionValid, sessionAtom } from '../auth/index.ts'
import { pushToast } from '../notifications/index.ts'
import { OfflineMapExtras } from './offline/OfflineMapExtras.tsx'
import { SaveAreaControl } from './offline/SaveAreaControl.tsx'
import { useOfflineTap } from './offline/offline-tap.ts'
import { DESKTOP_MEDIA, mapConfig } from './config.ts'
import type { MeridianChoice } from './components/CoordinatePanel.tsx'
import { CompareAreaLink } from './components/CompareAreaLink.tsx'
import { GpsStatus } from './components/GpsStatus.tsx'
import { LayerPanel, Legend } from './components/LayerPanel.tsx'
import { MapReadout, readoutPoint } from './components/MapReadout.tsx'
import { MapToolbar, type MapPanel } from './components/MapToolbar.tsx'
import { OverlayList } from './components/OverlayList.tsx'
import type { SearchChoice } from './components/SearchBox.tsx'
import { SelectionPanel } from './components/SelectionPanel.tsx'
import type { MapController } from './engine/map-controller.ts'
import { useGps } from './hooks/use-gps.ts'
import { useMapAddress } from './hooks/use-map-address.ts'
import { useMapController } from './hooks/use-map-controller.ts'
import { useMapLayers } from './hooks/use-map-layers.ts'
import { useMapPointer } from './hooks/use-map-pointer.ts'
import { useOverlays } from './hooks/use-overlays.ts'
import { useMedia } from './hooks/use-media.ts'
import { useTapLookup } from './hooks/use-tap-lookup.ts'
import { SearchPlaceholder } from './MapFrame.tsx'
import { shareLink } from './share.ts'
import { initialState, type MapSearch, type Point } from '../../lib/map-url.ts'

// The search and the measure tool load after the map has painted.
const SearchBox = lazy(() => import('./components/SearchBox.tsx'))
const MeasurePanel = lazy(() => import('./components/MeasurePanel.tsx'))
const GpsPanel = lazy(() => import('./components/GpsPanel.tsx'))

/** A search result chosen: a parcel or an address is looked up, a street or a ward only shown and pinned. */
function chooseResult(ctrl: MapController, c: SearchChoice, lookupAt: (p: Point) => void, dropPin: (p: Point) => void) {
  if (c.kind === 'parcel') {
    const at = ctrl.interiorPoint(c.parcel.geometry)
    ctrl.fitGeometry(c.parcel.geometry)
    if (at) lookupAt(at)
    return
  }
  const p = { lat: c.place.lat, lng: c.place.lng }
  if (c.place.kind === 'address' || c.place.kind === 'parcel') {
    ctrl.flyTo(p, mapConfig.focusZoom)
    lookupAt(p)
  } else {
    // A street or a ward is a place, not a parcel: fly there and mark it, nothing to count.
    ctrl.flyTo(p, c.place.kind === 'street' ? 17 : 15)
    dropPin(p)
  }
}

async function shareView(url: string) {
  const outcome = await shareLink({ title: 'Bản đồ quy hoạch — Quy hoạch VN', url })
  if (outcome === 'copied') pushToast(store, 'success', 'Đã chép liên kết tới khung bản đồ này.')
  else if (outcome === 'failed') pushToast(store, 'error', 'Không chia sẻ được liên kết.')
}

/**
 * The map screen: the server's basemap, planning and parcel tiles; tap to look up (counted, asks for a
 * login when needed and then carries on), hold to drop a pin, search, GPS, VN-2000, measuring, and the
 * view and selection kept in the address so a link reopens the same place. Each concern is a hook
 * (hooks/) or a component (components/); this screen wires them together.
 */
export default function MapView({ search }: { search: MapSearch }) {
  const targetRef = useRef<HTMLDivElement>(null)
  const [opening] = useState(() => initialState(location.hash, search))
  const { ctrl, view } = useMapController(targetRef, opening?.view)
  const layers = useMapLayers(ctrl)
  const overlays = useOverlays(ctrl, view)
  const gps = useGps(ctrl)
  const [pin, setPin] = useState<Point | null>(opening?.pin ?? null)
  const [panel, setPanel] = useState<MapPanel | null>(null)
  const [meridian, setMeridian] = useState<MeridianChoice>('auto')
  const [cover, setCover] = useState(0)
  const [announce, setAnnounce] = useState('')
  const desktop = useMedia(DESKTOP_MEDIA)
  const loggedIn = isSessionValid(useAtomValue(sessionAtom))
  const offlineTap = useOfflineTap(ctrl)
  const { selection, lookupAt, close, unreachable } = useTapLookup(ctrl, {
    answerOffline: offlineTap.answer,
    answerFromToday: offlineTap.answerFromToday,
    restore: opening?.selection,
    loggedIn,
    announce: setAnnounce,
  })
  const lookup = useCallback((p: Point) => void lookupAt(p), [lookupAt])
  const dropPin = useCallback((p: Point) => {
    setPin(p)
    setAnnounce(`Đã ghim vị trí ${formatDecimal(p)}.`)
  }, [])
  const measuring = panel === 'measure'
  useMapPointer(ctrl, { enabled: () => !measuring, onTap: lookup, onHold: dropPin })

  useEffect(() => {
    ctrl?.setPoints({ pin, lookup: selection && selection.status !== 'ready' ? selection.point : null })
  }, [ctrl, pin, selection])

  // The sheet (phones) or side panel (desktops) covers part of the map: keep the chosen parcel in sight.
  // A shared link's view is restored as it was sent, so only points chosen here move the map.
  // Once the parcel is known, the whole of it is fitted above the sheet and the chips, clear of the toolbar.
  const selectedPoint = selection?.point
  const selectedParcel = selection?.status === 'ready' ? selection.result.parcel?.geometry : undefined
  useEffect(() => {
    if (!ctrl || !selectedPoint || selectedPoint === opening?.selection) return
    const covered = { bottom: desktop ? 0 : cover, right: desktop ? 400 : 0 }
    if (selectedParcel) ctrl.fitSelection(selectedParcel, covered)
    else ctrl.keepVisible(selectedPoint, covered)
  }, [ctrl, selectedPoint, selectedParcel, cover, desktop, opening])

  const shareUrl = useMapAddress(view, selectedPoint, pin)

  const onMapKey = (e: KeyboardEvent<HTMLDivElement>) => {
    if (e.key === 'Enter' && e.target === e.currentTarget && !measuring) {
      e.preventDefault()
      lookup({ lat: view.lat, lng: view.lng })
    }
  }

  const centred = readoutPoint(pin, selection, view).label === 'Tâm bản đồ'
  const side = desktop && (selection !== null || offlineTap.state !== null)

  return (
    <div
      className="qh-map"
      data-panel={side ? 'side' : 'none'}
      style={{ ['--qh-sheet' as string]: `${desktop ? 0 : cover}px` }}
    >
      <div
        ref={targetRef}
        className="qh-map-canvas"
        role="region"
        aria-label="Bản đồ quy hoạch. Phím mũi tên để di chuyển, phím + và − để phóng to, thu nhỏ, Enter để tra cứu thửa ở tâm bản đồ."
        aria-describedby="qh-map-help"
        tabIndex={0}
        onKeyDown={onMapKey}
        data-testid="map"
        data-ready={ctrl !== null}
      />
      <p id="qh-map-help" className="visually-hidden">
        Chạm vào một thửa đất để tra cứu; giữ ngón tay 0,6 giây để ghim vị trí mà không tra cứu.
      </p>
      <div className="visually-hidden" role="status" aria-live="polite">
        {announce}
      </div>

      {centred && !measuring && !(gps.state.status === 'on' && gps.state.following) && (
        <div className="qh-crosshair" aria-hidden />
      )}

      <Suspense fallback={<SearchPlaceholder />}>
        <SearchBox
          loggedIn={loggedIn}
          near={view.zoom >= mapConfig.wardSearchMinZoom ? { lat: view.lat, lng: view.lng } : undefined}
          onChoose={(c) => ctrl && chooseResult(ctrl, c, lookup, dropPin)}
        />
      </Suspense>

      <MapToolbar
        onZoom={(d) => ctrl?.zoomBy(d)}
        gps={gps.state}
        onGps={gps.toggle}
        panel={panel}
        onPanel={setPanel}
        onShare={() => void shareView(shareUrl)}
      >
        <SaveAreaControl ctrl={ctrl} />
      </MapToolbar>

      <GpsStatus gps={gps.state} position={gps.position} onStop={gps.stop} />

      {panel === 'position' && (
        <Suspense fallback={null}>
          <GpsPanel position={gps.position} onClose={() => setPanel(null)} />
        </Suspense>
      )}

      {panel === 'layers' && (
        <LayerPanel
          settings={layers.settings}
          onSettings={layers.setSettings}
          hasRaster={layers.hasRaster}
          onClose={() => setPanel(null)}
        >
          <OverlayList overlays={overlays.visible} choices={overlays.choices} onChoice={overlays.setChoice} />
          <CompareAreaLink ctrl={ctrl} view={view} />
        </LayerPanel>
      )}

      {measuring && ctrl ? (
        <Suspense fallback={null}>
          <MeasurePanel map={ctrl.map} onClose={() => setPanel(null)} />
        </Suspense>
      ) : (
        <MapReadout
          pin={pin}
          selection={selection}
          view={view}
          compact={!desktop}
          onLookup={lookup}
          onUnpin={() => setPin(null)}
          meridian={meridian}
          onMeridian={setMeridian}
          onGoTo={(p, said) => {
            ctrl?.flyTo(p, Math.max(view.zoom, mapConfig.focusZoom - 1))
            setPin(p)
            setAnnounce(said)
          }}
        />
      )}

      {layers.settings.planning && view.zoom > mapConfig.planningMinZoom && (
        <div className="qh-bottom-right">
          <Legend
            entries={layers.legend.entries}
            reserves={layers.legend.reserves}
            parcels={layers.settings.parcels && view.zoom >= mapConfig.parcelMinZoom}
            compact={!desktop}
            planningOpacity={layers.settings.planningOpacity}
            highContrast={layers.settings.highContrast}
          />
        </div>
      )}

      {selection && (
        <SelectionPanel
          selection={selection}
          desktop={desktop}
          shareUrl={shareUrl}
          onCover={setCover}
          onClose={close}
          onLookup={() => lookup(selection.point)}
        />
      )}
      <OfflineMapExtras
        tap={offlineTap}
        unreachable={unreachable}
        view={view}
        desktop={desktop}
        shareUrl={shareUrl}
        onCover={setCover}
        onLookup={lookup}
      />
    </div>
  )
}
