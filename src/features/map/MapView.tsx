import 'ol/ol.css'
import './map.css'
import { lazy, Suspense, useCallback, useEffect, useRef, useState, useSyncExternalStore, type KeyboardEvent } from 'react'
import { useAtomValue } from 'jotai'
import { ActionIcon, Button, CloseButton, Loader } from '@mantine/core'
import { IconCurrentLocation, IconCurrentLocationOff, IconMinus, IconPlus, IconRuler2, IconSearch, IconShare, IconStack2, IconX } from '@tabler/icons-react'
import { store } from '../../lib/store.ts'
import { formatDecimal } from '../../lib/geo/coordinates.ts'
import { isSessionValid, sessionAtom } from '../auth/atoms.ts'
import { pushToast } from '../notifications/toast.ts'
import { OfflineMapExtras } from '../offline/components/OfflineMapExtras.tsx'
import { SaveAreaControl } from '../offline/components/SaveAreaControl.tsx'
import { useOfflineTap } from '../offline/offline-tap.ts'
import { DESKTOP_MEDIA, mapConfig } from './config.ts'
import { CoordinatePanel, type MeridianChoice } from './components/CoordinatePanel.tsx'
import { LayerPanel, Legend } from './components/LayerPanel.tsx'
import { ResultPanel } from './components/ResultPanel.tsx'
import type { SearchChoice } from './components/SearchBox.tsx'
import { createGps, formatAccuracy, type GpsController, type GpsState } from './engine/gps.ts'
import { attachHover } from './engine/hover.ts'
import { createMapController, type LayerSettings, type MapController } from './engine/map-controller.ts'
import { attachTaps } from './engine/tap.ts'
import { legendFor, type LegendEntry } from './land-use.ts'
import { SearchPlaceholder } from './MapFrame.tsx'
import type { Selection } from './selection.ts'
import { shareLink } from './share.ts'
import { fetchTileSets } from './tilejson.ts'
import { encodeMapHash, initialState, type LatLngZoom, type MapSearch, type Point } from './url-state.ts'

// The result card, the search and the measure tool load after the map has painted.
const ResultCard = lazy(() => import('./components/ResultCard.tsx'))
const SearchBox = lazy(() => import('./components/SearchBox.tsx'))
const MeasurePanel = lazy(() => import('./components/MeasurePanel.tsx'))

function useMedia(query: string): boolean {
  return useSyncExternalStore(
    (onChange) => {
      const mq = matchMedia(query)
      mq.addEventListener('change', onChange)
      return () => mq.removeEventListener('change', onChange)
    },
    () => matchMedia(query).matches,
    () => false,
  )
}

function currentUrl(state: Parameters<typeof encodeMapHash>[0]): string {
  return `${location.origin}${location.pathname}${encodeMapHash(state)}`
}

/**
 * The map screen: the server's basemap, planning and parcel tiles; tap to look up (counted, asks for a
 * login when needed and then carries on), hold to drop a pin, search, GPS, VN-2000, measuring, and the
 * view and selection kept in the address so a link reopens the same place.
 */
export default function MapView({ search }: { search: MapSearch }) {
  const targetRef = useRef<HTMLDivElement>(null)
  const [opening] = useState(() => initialState(location.hash, search))
  const [ctrl, setCtrl] = useState<MapController | null>(null)
  const [view, setView] = useState<LatLngZoom>(opening?.view ?? mapConfig.fallbackCenter)
  const [settings, setSettings] = useState<LayerSettings>(() => ({
    planning: true,
    parcels: true,
    planningOpacity: mapConfig.planningOpacity,
    basemap: 'vector',
    highContrast: matchMedia('(prefers-contrast: more)').matches,
  }))
  const [selection, setSelection] = useState<Selection | null>(null)
  const [pin, setPin] = useState<Point | null>(opening?.pin ?? null)
  const [gps, setGps] = useState<GpsState>({ status: 'off' })
  const [panel, setPanel] = useState<'layers' | 'measure' | null>(null)
  const [legend, setLegend] = useState<LegendEntry[]>([])
  const [meridian, setMeridian] = useState<MeridianChoice>('auto')
  const [cover, setCover] = useState(0)
  const [hasRaster, setHasRaster] = useState(false)
  const [announce, setAnnounce] = useState('')
  const desktop = useMedia(DESKTOP_MEDIA)
  const session = useAtomValue(sessionAtom)
  const loggedIn = isSessionValid(session)

  const gpsRef = useRef<GpsController | null>(null)
  const lookupAbort = useRef<AbortController | null>(null)
  const measuring = useRef(false)
  measuring.current = panel === 'measure'

  useEffect(() => {
    const c = createMapController(targetRef.current!, { view: opening?.view, settings })
    const tiles = new AbortController()
    void fetchTileSets(tiles.signal).then((sets) => {
      if (tiles.signal.aborted) return
      c.addTileLayers(sets)
      setHasRaster(c.hasRaster())
      // A deployment that configures a raster basemap wants it seen; the app's own stays one tap away.
      // Offline the app's own is the one kept on the device (third-party raster tiles are not cached).
      if (c.hasRaster() && navigator.onLine) setSettings((s) => ({ ...s, basemap: 'raster' }))
      if (!opening) c.fitData()
    })
    const offView = c.onView(setView)
    const offLegend = c.onLegend((codes) => setLegend(legendFor(codes)))
    gpsRef.current = createGps(c.map, setGps)
    setCtrl(c)
    return () => {
      tiles.abort()
      offView()
      offLegend()
      gpsRef.current?.dispose()
      gpsRef.current = null
      lookupAbort.current?.abort()
      c.destroy()
    }
    // The map is made once; later settings go through setSettings below.
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [])

  useEffect(() => ctrl?.setSettings(settings), [ctrl, settings])

  const offlineTap = useOfflineTap(ctrl)
  const answerOffline = offlineTap.answer

  const lookupAt = useCallback(
    async (point: Point) => {
      if (!ctrl) return
      // Offline, the stored result or the saved tiles answer instead, and nothing is counted.
      if (await answerOffline(point)) return setSelection(null)
      lookupAbort.current?.abort()
      const abort = new AbortController()
      lookupAbort.current = abort
      setSelection({ point, status: 'loading', waitingForLogin: !isSessionValid(store.get(sessionAtom)) })
      ctrl.setSelectedGeometry(null)
      const { lookupPlanning } = await import('./lookup.ts')
      if (abort.signal.aborted) return
      const res = await lookupPlanning(point, abort.signal)
      if (abort.signal.aborted) return
      if (res.ok) {
        setSelection({ point, status: 'ready', result: res.data })
        const { parcel } = res.data
        ctrl.setSelectedGeometry(parcel?.geometry ?? null)
        setAnnounce(parcel ? `Đã tìm thấy tờ ${parcel.sheet_no}, thửa ${parcel.parcel_no}.` : 'Không có thửa đất tại điểm này; đã tìm thấy quy hoạch.')
      } else {
        // The API client has already said why (toast); the point stays marked by nothing.
        setSelection(null)
        if (res.code === 'Offline' || res.code === 'Network') void answerOffline(point, true)
      }
    },
    [ctrl, answerOffline],
  )
  const lookupRef = useRef(lookupAt)
  lookupRef.current = lookupAt

  const dropPin = useCallback((p: Point) => {
    setPin(p)
    setAnnounce(`Đã ghim vị trí ${formatDecimal(p)}.`)
  }, [])

  useEffect(() => {
    if (!ctrl) return
    const offTaps = attachTaps(ctrl.map, {
      enabled: () => !measuring.current,
      onTap: (px) => void lookupRef.current(ctrl.lngLatAt(px)),
      onHold: (px) => dropPin(ctrl.lngLatAt(px)),
    })
    const offHover = attachHover(ctrl, () => !measuring.current)
    return () => {
      offTaps()
      offHover()
    }
  }, [ctrl, dropPin])

  // A shared link reopens its parcel: looked up at once when logged in, otherwise on request (it counts).
  const restored = useRef(false)
  useEffect(() => {
    if (!ctrl || restored.current) return
    restored.current = true
    const sel = opening?.selection
    if (!sel) return
    if (loggedIn) void lookupAt(sel)
    else setSelection({ point: sel, status: 'idle' })
  }, [ctrl, opening, loggedIn, lookupAt])

  // Once logged in, a lookup that was waiting for it says "looking up" rather than "log in".
  useEffect(() => {
    if (loggedIn && selection?.status === 'loading' && selection.waitingForLogin) setSelection({ ...selection, waitingForLogin: false })
  }, [loggedIn, selection])

  useEffect(() => {
    ctrl?.setPoints({ pin, lookup: selection && selection.status !== 'ready' ? selection.point : null })
  }, [ctrl, pin, selection])

  // The sheet (phones) or side panel (desktops) covers part of the map: keep the chosen parcel in sight.
  const selectedPoint = selection?.point
  // A shared link's view is restored as it was sent, so only points chosen here move the map.
  useEffect(() => {
    if (ctrl && selectedPoint && selectedPoint !== opening?.selection) ctrl.keepVisible(selectedPoint, { bottom: desktop ? 0 : cover, right: desktop ? 400 : 0 })
  }, [ctrl, selectedPoint, cover, desktop, opening])

  // The address follows the map (replaceState: moving the map adds no history entries). A moving view is
  // written once it settles; a chosen point or pin at once, so the address never names a parcel the screen
  // has already dropped (a lookup that found nothing clears it together with its toast, even on a slow phone).
  const marks = useRef({ selectedPoint, pin })
  useEffect(() => {
    const write = () => {
      const hash = encodeMapHash({ view, ...(selectedPoint ? { selection: selectedPoint } : {}), ...(pin ? { pin } : {}) })
      if (location.hash !== hash) history.replaceState(history.state, '', `${location.pathname}${location.search}${hash}`)
    }
    if (marks.current.selectedPoint !== selectedPoint || marks.current.pin !== pin) {
      marks.current = { selectedPoint, pin }
      return write()
    }
    const t = setTimeout(write, 250)
    return () => clearTimeout(t)
  }, [view, selectedPoint, pin])

  const onChoose = (c: SearchChoice) => {
    if (!ctrl) return
    if (c.kind === 'parcel') {
      const at = ctrl.interiorPoint(c.parcel.geometry)
      ctrl.fitGeometry(c.parcel.geometry)
      if (at) void lookupAt(at)
      return
    }
    const p = { lat: c.place.lat, lng: c.place.lng }
    if (c.place.kind === 'address' || c.place.kind === 'parcel') {
      ctrl.flyTo(p, mapConfig.focusZoom)
      void lookupAt(p)
    } else {
      // A street or a ward is a place, not a parcel: fly there and mark it, nothing to count.
      ctrl.flyTo(p, c.place.kind === 'street' ? 17 : 15)
      dropPin(p)
    }
  }

  const onGps = () => {
    const g = gpsRef.current
    if (!g) return
    if (gps.status === 'off' || gps.status === 'error') g.start()
    else if (gps.status === 'on' && !gps.following) g.follow()
    else g.stop()
  }

  const shareView = async () => {
    const url = currentUrl({ view, ...(selectedPoint ? { selection: selectedPoint } : {}), ...(pin ? { pin } : {}) })
    const outcome = await shareLink({ title: 'Bản đồ quy hoạch — Quy hoạch VN', url })
    if (outcome === 'copied') pushToast(store, 'success', 'Đã chép liên kết tới khung bản đồ này.')
    else if (outcome === 'failed') pushToast(store, 'error', 'Không chia sẻ được liên kết.')
  }

  const onMapKey = (e: KeyboardEvent<HTMLDivElement>) => {
    if (e.key === 'Enter' && e.target === e.currentTarget && !measuring.current) {
      e.preventDefault()
      void lookupAt({ lat: view.lat, lng: view.lng })
    }
  }

  const readout =
    pin !== null
      ? { point: pin, label: 'Ghim' }
      : selection
        ? { point: selection.point, label: 'Điểm đã chọn' }
        : { point: { lat: view.lat, lng: view.lng }, label: 'Tâm bản đồ' }
  const datasetMeridian = pin === null && selection?.status === 'ready' ? selection.result.location.vn2000.zone_meridian : undefined
  const gpsOn = gps.status === 'on' || gps.status === 'locating'
  const gpsLabel = gps.status === 'off' || gps.status === 'error' ? 'Bật định vị GPS' : gps.status === 'on' && !gps.following ? 'Về vị trí của tôi' : 'Tắt định vị GPS'
  const side = desktop && (selection !== null || offlineTap.state !== null)
  const shareUrl = currentUrl({ view, ...(selectedPoint ? { selection: selectedPoint } : {}), ...(pin ? { pin } : {}) })

  return (
    <div className="qh-map" data-panel={side ? 'side' : 'none'} style={{ ['--qh-sheet' as string]: `${desktop ? 0 : cover}px` }}>
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

      {readout.label === 'Tâm bản đồ' && panel !== 'measure' && !(gps.status === 'on' && gps.following) && <div className="qh-crosshair" aria-hidden />}

      <Suspense fallback={<SearchPlaceholder />}>
        <SearchBox loggedIn={loggedIn} onChoose={onChoose} />
      </Suspense>

      <div className="qh-controls" role="toolbar" aria-label="Công cụ bản đồ" aria-orientation="vertical">
        <ActionIcon size={46} radius="xl" variant="default" aria-label="Phóng to" title="Phóng to" onClick={() => ctrl?.zoomBy(1)}>
          <IconPlus size={24} />
        </ActionIcon>
        <ActionIcon size={46} radius="xl" variant="default" aria-label="Thu nhỏ" title="Thu nhỏ" onClick={() => ctrl?.zoomBy(-1)}>
          <IconMinus size={24} />
        </ActionIcon>
        <ActionIcon size={46} radius="xl" variant={gpsOn ? 'filled' : 'default'} aria-label={gpsLabel} title={gpsLabel} aria-pressed={gpsOn} onClick={onGps} data-testid="gps-button">
          {gps.status === 'on' && !gps.following ? <IconCurrentLocationOff size={24} /> : <IconCurrentLocation size={24} />}
        </ActionIcon>
        <ActionIcon
          size={46}
          radius="xl"
          variant={panel === 'layers' ? 'filled' : 'default'}
          aria-label="Lớp bản đồ và độ đậm quy hoạch"
          title="Lớp bản đồ"
          aria-pressed={panel === 'layers'}
          onClick={() => setPanel((p) => (p === 'layers' ? null : 'layers'))}
          data-testid="layers-button"
        >
          <IconStack2 size={24} />
        </ActionIcon>
        <ActionIcon
          size={46}
          radius="xl"
          variant={panel === 'measure' ? 'filled' : 'default'}
          aria-label="Đo chiều dài và diện tích"
          title="Đo"
          aria-pressed={panel === 'measure'}
          onClick={() => setPanel((p) => (p === 'measure' ? null : 'measure'))}
          data-testid="measure-button"
        >
          <IconRuler2 size={24} />
        </ActionIcon>
        <ActionIcon size={46} radius="xl" variant="default" aria-label="Chia sẻ khung bản đồ này" title="Chia sẻ" onClick={() => void shareView()}>
          <IconShare size={24} />
        </ActionIcon>
        <SaveAreaControl ctrl={ctrl} />
      </div>

      {gpsOn && (
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
      )}
      {gps.status === 'error' && (
        <div className="qh-alert qh-floating" role="alert" data-testid="gps-error">
          <CloseButton size="lg" aria-label="Đóng thông báo định vị" onClick={() => gpsRef.current?.stop()} style={{ float: 'right', marginLeft: 8 }} />
          <strong>Không định vị được.</strong> {gps.message}
        </div>
      )}

      {panel === 'layers' && <LayerPanel settings={settings} onSettings={setSettings} hasRaster={hasRaster} onClose={() => setPanel(null)} />}

      {panel === 'measure' && ctrl ? (
        <Suspense fallback={null}>
          <MeasurePanel map={ctrl.map} onClose={() => setPanel(null)} />
        </Suspense>
      ) : (
        <div className="qh-bottom-left">
          {pin && (
            <div className="qh-panel qh-floating" style={{ marginBottom: 8, display: 'flex', alignItems: 'center', gap: 8, flexWrap: 'wrap' }} data-testid="pin-bar">
              <span>
                <b>Ghim</b>
                <span className="qh-pin-coords">: {formatDecimal(pin)}</span>
              </span>
              <Button size="xs" onClick={() => void lookupAt(pin)} leftSection={<IconSearch size={16} aria-hidden />}>
                Tra cứu tại đây
              </Button>
              <ActionIcon size={36} variant="default" aria-label="Bỏ ghim" onClick={() => setPin(null)}>
                <IconX size={18} />
              </ActionIcon>
            </div>
          )}
          <CoordinatePanel
            point={readout.point}
            pointLabel={readout.label}
            datasetMeridian={datasetMeridian}
            choice={meridian}
            onChoice={setMeridian}
            compact={!desktop}
            onGoTo={(p, said) => {
              ctrl?.flyTo(p, Math.max(view.zoom, mapConfig.focusZoom - 1))
              setPin(p)
              setAnnounce(said)
            }}
          />
        </div>
      )}

      {settings.planning && view.zoom > mapConfig.planningMinZoom && (
        <div className="qh-bottom-right">
          <Legend entries={legend} compact={!desktop} />
        </div>
      )}

      {selection && (
        <ResultPanel
          mode={desktop ? 'side' : 'sheet'}
          label="Kết quả tra cứu thửa đất"
          onCover={setCover}
          onClose={() => {
            lookupAbort.current?.abort()
            setSelection(null)
            ctrl?.setSelectedGeometry(null)
          }}
        >
          <Suspense
            fallback={
              <div style={{ padding: 16 }}>
                <Loader size="sm" aria-label="Đang tải" />
              </div>
            }
          >
            <ResultCard selection={selection} shareUrl={shareUrl} onLookup={() => void lookupAt(selection.point)} />
          </Suspense>
        </ResultPanel>
      )}
      <OfflineMapExtras tap={offlineTap} view={view} desktop={desktop} shareUrl={shareUrl} onCover={setCover} onLookup={(p) => void lookupAt(p)} />
    </div>
  )
}
