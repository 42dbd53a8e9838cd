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
import type { Fix } from '../../position/index.ts'
import { prefersReducedMotion } from '../config.ts'

export type GpsState =
  | { status: 'off' }
  | { status: 'locating'; following: boolean }
  | { status: 'on'; fix: Fix; following: boolean }
  | { status: 'error'; message: string }

const BLUE = '#1a73e8'
const dotStyle = new Style({
  image: new CircleStyle({
    radius: 8,
    fill: new Fill({ color: BLUE }),
    stroke: new Stroke({ color: '#ffffff', width: 3 }),
  }),
  zIndex: 3,
})
/** A stale or degraded position: red, so the dot on the map says what the readout says. */
const staleDotStyle = new Style({
  image: new CircleStyle({
    radius: 8,
    fill: new Fill({ color: '#b91c1c' }),
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
export function createGpsLayer(map: OlMap) {
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
    draw(fix: Fix, alarm: boolean) {
      const at = fromLonLat([fix.lng, fix.lat])
      dot.setGeometry(new Point(at))
      dot.setStyle(alarm ? staleDotStyle : dotStyle)
      source.clear(true)
      if (fix.accuracyM !== null) {
        accuracy.setGeometry(
          circular([fix.lng, fix.lat], fix.accuracyM, 64).transform('EPSG:4326', map.getView().getProjection()),
        )
        source.addFeature(accuracy)
      }
      source.addFeature(dot)
      if (fix.headingDeg !== null && !alarm) {
        heading.setGeometry(new Point(at))
        heading.setStyle(headingStyle(fix.headingDeg))
        source.addFeature(heading)
      }
    },
    clear: () => source.clear(true),
    dispose: () => map.removeLayer(layer),
  }
}

/** Centres the map on a fix; the first fix of a run also zooms in to street level. */
export function centreOn(map: OlMap, fix: Fix, zoomIn: boolean) {
  const view = map.getView()
  const center = fromLonLat([fix.lng, fix.lat])
  const zoom = zoomIn ? Math.max(view.getZoom() ?? 0, 17) : undefined
  if (prefersReducedMotion()) {
    view.setCenter(center)
    if (zoom !== undefined) view.setZoom(zoom)
  } else view.animate({ center, ...(zoom !== undefined ? { zoom } : {}), duration: 300 })
}
