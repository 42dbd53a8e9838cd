import 'ol/ol.css'
import './map.css'
import { lazy, Suspense, useCallback, useEffect, useRef, useState, type KeyboardEvent, type RefObject } from 'react'
import { useAtomValue } from 'jotai'
import { store } from '../../lib/store.ts'
import { useOnline } from '../../lib/use-online.ts'
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
import { LayerPanel, MapLegend } from './components/LayerPanel.tsx'
import { MapReadout, readoutPoint } from './components/MapReadout.tsx'
import { MapToolbar, type MapPanel } from './components/MapToolbar.tsx'
import { NoDataNote } from './components/NoDataNote.tsx'
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
import { useServerData } from './hooks/use-server-data.ts'
import { useTapLookup } from './hooks/use-tap-lookup.ts'
import { SearchPlaceholder } from './MapFrame.tsx'
import { searchBoxChunk } from './search-box-chunk.ts'
import { setPrintMap } from './print-card.ts'
import { shareLink } from './share.ts'
import { decodeMapHash, initialState, type MapSearch, type Point } from '../../lib/map-url.ts'

// The measure tool and the GPS panel load when opened; the search box with the map view (search-box-chunk.ts).
const MeasurePanel = lazy(() => import('./components/MeasurePanel.tsx'))
const GpsPanel = lazy(() => import('./components/GpsPanel.tsx'))

/** What the bottom of a phone's map holds below the tools: the attribution ("i", 44 px) and the gaps. */
const BOTTOM_UNDER_SHEET_PX = 66
/** …and with no sheet open, the legend chip standing above the attribution as well. */
const BOTTOM_STRIP_PX = 118

/** The element's height, kept as it resizes (the map frame follows the window and the keyboard). */
function useElementHeight(ref: RefObject<HTMLElement | null>): number {
  const [height, setHeight] = useState(0)
  useEffect(() => {
    const el = ref.current
    if (!el) return
    setHeight(el.clientHeight)
    const watch = new ResizeObserver(() => setHeight(el.clientHeight))
    watch.observe(el)
    return () => watch.disconnect()
  }, [ref])
  return height
}

/**
 * A search result chosen: a parcel or an address is looked up (the counted lookup at its point, which
 * answers the parcel's record), a street or a ward only shown and pinned, the card of the place before closed.
 */
function chooseResult(ctrl: MapController, c: SearchChoice, lookupAt: (p: Point) => void, goTo: (p: Point) => void) {
  const p = c.kind === 'parcel' ? { lat: c.parcel.lat, lng: c.parcel.lng } : { lat: c.place.lat, lng: c.place.lng }
  if (c.kind === 'parcel' || c.place.kind === 'address' || c.place.kind === 'parcel') {
    ctrl.flyTo(p, mapConfig.focusZoom)
    lookupAt(p)
  } else {
    // A street or a ward is a place, not a parcel: fly there and mark it, nothing to count.
    ctrl.flyTo(p, c.place.kind === 'street' ? 17 : 15)
    goTo(p)
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
  // Chosen once per mount: the loaded box when its chunk is in (no fallback), else the lazy one.
  const [SearchBox] = useState(() => searchBoxChunk.pick())
  const { ctrl, view } = useMapController(targetRef, opening?.view)
  const layers = useMapLayers(ctrl)
  const { server, dataInView } = useServerData(ctrl, view, layers.tileSets)
  const online = useOnline()
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
  // "Làm mới" on a stored answer, and the full lookup after an offline one: always asks the server.
  const refresh = useCallback((p: Point) => void lookupAt(p, { refresh: true }), [lookupAt])
  const dropPin = useCallback((p: Point) => {
    setPin(p)
    setAnnounce(`Đã ghim vị trí ${formatDecimal(p)}.`)
  }, [])
  const measuring = panel === 'measure'
  useMapPointer(ctrl, { enabled: () => !measuring, onTap: lookup, onHold: dropPin })
  // "In phiếu" draws this map at the printed extract's size first.
  useEffect(() => (ctrl ? setPrintMap((focus) => ctrl.drawForPrint(focus)) : undefined), [ctrl])

  useEffect(() => {
    ctrl?.setPoints({ pin, lookup: selection && selection.status !== 'ready' ? selection.point : null })
  }, [ctrl, pin, selection])

  // The sheet (phones) or side panel (desktops) covers part of the map: keep the chosen parcel in sight,
  // whether looked up or opened from the history. A shared link carries the point, not the sender's
  // framing (their own sheet shifted it): this screen frames it above its own sheet. Once the parcel is
  // known, the whole of it is fitted above the sheet and the chips, clear of the toolbar.
  const stored = offlineTap.state?.kind === 'stored' ? offlineTap.state : null
  const shownPoint = selection?.point ?? offlineTap.state?.point
  const shownParcel = selection?.status === 'ready' ? selection.result.parcel?.geometry : stored?.data.parcel?.geometry
  useEffect(() => {
    if (!ctrl || !shownPoint) return
    const covered = { bottom: desktop ? 0 : cover, right: desktop ? 400 : 0 }
    if (shownParcel) ctrl.fitSelection(shownParcel, covered)
    else ctrl.keepVisible(shownPoint, covered)
  }, [ctrl, shownPoint, shownParcel, cover, desktop])

  // A link pasted or edited in the address of this open tab takes the map there and looks its point up
  // (the history first, as always). The map writes its own moves with replaceState, which fires no event.
  useEffect(() => {
    if (!ctrl) return
    const onHash = () => {
      const next = decodeMapHash(location.hash)
      if (!next) return
      if (next.pin) setPin(next.pin)
      if (next.selection) lookup(next.selection)
      else ctrl.flyTo(next.view, next.view.zoom)
    }
    window.addEventListener('hashchange', onHash)
    return () => window.removeEventListener('hashchange', onHash)
  }, [ctrl, lookup])

  // The address names a parcel being looked up or answered; an offline tap read from the tiles is not one.
  const shareUrl = useMapAddress(view, selection?.point ?? stored?.point, pin)

  const onMapKey = (e: KeyboardEvent<HTMLDivElement>) => {
    if (e.key === 'Enter' && e.target === e.currentTarget && !measuring) {
      e.preventDefault()
      lookup({ lat: view.lat, lng: view.lng })
    }
  }

  // On a phone the tools down the side stop above what covers the bottom of the map: the result sheet
  // (at most half the map) and the attribution under it, or the legend when no sheet is open.
  const mapHeight = useElementHeight(targetRef)
  const sheetOpen = !desktop && cover > 0
  const toolRoom =
    desktop || mapHeight === 0
      ? undefined
      : mapHeight - Math.min(cover, mapHeight / 2) - (sheetOpen ? BOTTOM_UNDER_SHEET_PX : BOTTOM_STRIP_PX)

  const centred = readoutPoint(pin, selection, view).label === 'Tâm bản đồ'
  const side = desktop && (selection !== null || offlineTap.state !== null)

  return (
    <div
      className="qh-map"
      data-panel={side ? 'side' : 'none'}
      style={{ ['--qh-sheet' as string]: `${desktop ? 0 : cover}px` }}
    >
      {/* First in the tab order: the search, then the map, then the map's own controls. */}
      <Suspense fallback={<SearchPlaceholder />}>
        <SearchBox
          loggedIn={loggedIn}
          near={view.zoom >= mapConfig.wardSearchMinZoom ? { lat: view.lat, lng: view.lng } : undefined}
          onChoose={(c) =>
            ctrl &&
            chooseResult(ctrl, c, lookup, (p) => {
              close()
              dropPin(p)
            })
          }
        />
      </Suspense>

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

      <MapToolbar
        onZoom={(d) => ctrl?.zoomBy(d)}
        gps={gps.state}
        onGps={gps.toggle}
        panel={panel}
        onPanel={setPanel}
        onShare={() => void shareView(shareUrl)}
        room={toolRoom}
      >
        <SaveAreaControl ctrl={ctrl} />
      </MapToolbar>

      <GpsStatus gps={gps.state} position={gps.position} onStop={gps.stop} />

      {panel === 'position' && (
        <Suspense fallback={null}>
          <GpsPanel position={gps.position} onClose={() => setPanel(null)} />
        </Suspense>
      )}

      {server && !dataInView && online && !selection && !measuring && gps.state.status === 'off' && (
        <NoDataNote server={server} onShowData={() => ctrl?.showData()} />
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

      {!sheetOpen && <MapLegend layers={layers} zoom={view.zoom} compact={!desktop} />}

      {selection && (
        <SelectionPanel
          selection={selection}
          desktop={desktop}
          shareUrl={shareUrl}
          onCover={setCover}
          onClose={close}
          onLookup={() => lookup(selection.point)}
          server={server}
          onShowData={() => {
            close()
            ctrl?.showData()
          }}
        />
      )}
      <OfflineMapExtras
        tap={offlineTap}
        unreachable={unreachable}
        view={view}
        desktop={desktop}
        shareUrl={shareUrl}
        onCover={setCover}
        onLookup={refresh}
      />
    </div>
  )
}
