import Feature from 'ol/Feature'
import type OlMap from 'ol/Map'
import VectorLayer from 'ol/layer/Vector'
import VectorSource from 'ol/source/Vector'
import Point from 'ol/geom/Point'
import { circular } from 'ol/geom/Polygon'
import { fromLonLat } from 'ol/proj'
import CircleStyle from 'ol/style/Circle'
import Fill from 'ol/style/Fill'
import RegularShape from 'ol/style/RegularShape'
import Stroke from 'ol/style/Stroke'
import Style from 'ol/style/Style'
import { prefersReducedMotion } from '../config.ts'

export type GpsFix = { lat: number; lng: number; accuracy: number; heading: number | null; at: number }

export type GpsState =
  | { status: 'off' }
  | { status: 'locating'; following: boolean }
  | { status: 'on'; fix: GpsFix; following: boolean }
  | { status: 'error'; reason: 'denied' | 'unavailable' | 'timeout' | 'unsupported'; message: string }

/** Why there is no position, said plainly in Vietnamese with what to do about it. */
export function gpsErrorMessage(
  reason: 'denied' | 'unavailable' | 'timeout' | 'unsupported',
  secureContext: boolean,
): string {
  switch (reason) {
    case 'denied':
      return secureContext
        ? 'Trình duyệt đang chặn quyền truy cập vị trí của trang này. Hãy bấm vào biểu tượng ổ khoá cạnh địa chỉ trang (hoặc vào Cài đặt > Quyền riêng tư > Vị trí), cho phép "Vị trí", rồi bấm nút định vị lại.'
        : 'Trình duyệt chỉ cho phép định vị trên kết nối an toàn (địa chỉ bắt đầu bằng https://). Hãy mở trang bằng https rồi thử lại.'
    case 'unavailable':
      return 'Không xác định được vị trí: thiết bị chưa bắt được tín hiệu GPS hoặc mạng. Hãy bật dịch vụ vị trí của máy, ra chỗ thoáng rồi thử lại.'
    case 'timeout':
      return 'Chưa nhận được vị trí sau một lúc chờ. Tín hiệu GPS có thể yếu; ứng dụng vẫn đang thử tiếp.'
    case 'unsupported':
      return 'Trình duyệt này không hỗ trợ định vị.'
  }
}

/** "± 8 m"; kilometres when the fix is that coarse (a desktop located by its network). */
export function formatAccuracy(m: number): string {
  if (m >= 1000) return `± ${new Intl.NumberFormat('vi-VN', { maximumFractionDigits: 1 }).format(m / 1000)} km`
  return `± ${Math.max(1, Math.round(m))} m`
}

const BLUE = '#1a73e8'
const dotStyle = new Style({
  image: new CircleStyle({
    radius: 8,
    fill: new Fill({ color: BLUE }),
    stroke: new Stroke({ color: '#ffffff', width: 3 }),
  }),
  zIndex: 3,
})
const accuracyStyle = new Style({
  fill: new Fill({ color: 'rgba(26,115,232,0.14)' }),
  stroke: new Stroke({ color: 'rgba(26,115,232,0.7)', width: 1.5 }),
  zIndex: 1,
})
/** A small arrow just outside the dot, pointing where the device is heading (degrees from north). */
function headingStyle(headingDeg: number) {
  const rad = (headingDeg * Math.PI) / 180
  return new Style({
    image: new RegularShape({
      points: 3,
      radius: 7,
      fill: new Fill({ color: BLUE }),
      stroke: new Stroke({ color: '#ffffff', width: 2 }),
      rotation: rad,
      displacement: [Math.sin(rad) * 14, Math.cos(rad) * 14],
    }),
    zIndex: 2,
  })
}

/** The blue dot, its accuracy circle (geodesic, so its size is true on the ground) and the heading arrow. */
function createGpsLayer(map: OlMap) {
  const source = new VectorSource()
  const layer = new VectorLayer({ source, zIndex: 60, properties: { name: 'gps' } })
  map.addLayer(layer)
  const dot = new Feature<Point>()
  dot.setStyle(dotStyle)
  const accuracy = new Feature()
  accuracy.setStyle(accuracyStyle)
  const heading = new Feature<Point>()
  return {
    layer,
    draw(fix: GpsFix) {
      const at = fromLonLat([fix.lng, fix.lat])
      dot.setGeometry(new Point(at))
      accuracy.setGeometry(
        circular([fix.lng, fix.lat], fix.accuracy, 64).transform('EPSG:4326', map.getView().getProjection()),
      )
      source.clear(true)
      source.addFeatures([accuracy, dot])
      if (fix.heading !== null) {
        heading.setGeometry(new Point(at))
        heading.setStyle(headingStyle(fix.heading))
        source.addFeature(heading)
      }
    },
    clear: () => source.clear(true),
    dispose: () => map.removeLayer(layer),
  }
}

/** Centres the map on a fix; the first fix of a run also zooms in to street level. */
function centreOn(map: OlMap, fix: GpsFix, zoomIn: boolean) {
  const view = map.getView()
  const center = fromLonLat([fix.lng, fix.lat])
  const zoom = zoomIn ? Math.max(view.getZoom() ?? 0, 17) : undefined
  if (prefersReducedMotion()) {
    view.setCenter(center)
    if (zoom !== undefined) view.setZoom(zoom)
  } else view.animate({ center, ...(zoom !== undefined ? { zoom } : {}), duration: 300 })
}

function fixOf(p: GeolocationPosition): GpsFix {
  const h = p.coords.heading
  return {
    lat: p.coords.latitude,
    lng: p.coords.longitude,
    accuracy: p.coords.accuracy,
    heading: h !== null && Number.isFinite(h) && (p.coords.speed ?? 1) > 0 ? h : null,
    at: p.timestamp,
  }
}

/**
 * The device's position on the map: a blue dot, its accuracy circle and the heading when the device
 * reports one. Follow mode keeps the map centred on the dot until the user pans away.
 */
export function createGps(map: OlMap, onState: (s: GpsState) => void) {
  const drawn = createGpsLayer(map)
  let watchId: number | undefined
  let following = false
  let firstFix = true
  let last: GpsFix | undefined
  let state: GpsState = { status: 'off' }
  const emit = (s: GpsState) => {
    state = s
    onState(s)
  }
  const centre = (fix: GpsFix) => {
    centreOn(map, fix, firstFix)
    firstFix = false
  }
  const stopWatch = () => {
    if (watchId !== undefined) navigator.geolocation.clearWatch(watchId)
    watchId = undefined
  }
  const onPosition = (p: GeolocationPosition) => {
    const fix = (last = fixOf(p))
    drawn.draw(fix)
    if (following) centre(fix)
    emit({ status: 'on', fix, following })
  }
  const onError = (err: GeolocationPositionError) => {
    const reason = err.code === err.PERMISSION_DENIED ? 'denied' : err.code === err.TIMEOUT ? 'timeout' : 'unavailable'
    // A timeout with a fix on screen keeps the fix: the watch goes on and the next fix replaces it.
    if (reason === 'timeout' && last) return
    if (reason === 'denied') stopWatch()
    emit({
      status: 'error',
      reason,
      message: gpsErrorMessage(reason, typeof window === 'undefined' || window.isSecureContext),
    })
  }
  // Panning by hand ends follow mode; the locate button turns it back on.
  const onDrag = () => {
    if (!following) return
    following = false
    emit(
      last
        ? { status: 'on', fix: last, following }
        : state.status === 'locating'
          ? { status: 'locating', following }
          : state,
    )
  }
  map.on('pointerdrag', onDrag)

  return {
    layer: drawn.layer,
    start() {
      if (!('geolocation' in navigator))
        return emit({ status: 'error', reason: 'unsupported', message: gpsErrorMessage('unsupported', true) })
      following = true
      firstFix = true
      watchId ??= navigator.geolocation.watchPosition(onPosition, onError, {
        enableHighAccuracy: true,
        maximumAge: 5000,
        timeout: 30_000,
      })
      if (!last) return emit({ status: 'locating', following })
      centre(last)
      emit({ status: 'on', fix: last, following })
    },
    follow() {
      following = true
      if (!last) return
      centre(last)
      emit({ status: 'on', fix: last, following })
    },
    stop() {
      stopWatch()
      following = false
      last = undefined
      drawn.clear()
      emit({ status: 'off' })
    },
    dispose() {
      stopWatch()
      map.un('pointerdrag', onDrag)
      drawn.dispose()
    },
  }
}
export type GpsController = ReturnType<typeof createGps>
