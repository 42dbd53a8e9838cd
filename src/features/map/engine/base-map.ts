import OlMap from 'ol/Map'
import View from 'ol/View'
import Attribution from 'ol/control/Attribution'
import ScaleLine from 'ol/control/ScaleLine'
import GeoJSON from 'ol/format/GeoJSON'
import { defaults as defaultInteractions } from 'ol/interaction/defaults'
import KeyboardPan from 'ol/interaction/KeyboardPan'
import KeyboardZoom from 'ol/interaction/KeyboardZoom'
import type BaseLayer from 'ol/layer/Base'
import VectorLayer from 'ol/layer/Vector'
import { fromLonLat } from 'ol/proj'
import VectorSource from 'ol/source/Vector'
import { mapConfig } from '../config.ts'
import { vietnamOutline } from '../national-outline.ts'
import type { LatLngZoom } from '../../../lib/map-url.ts'
import { wheelZoomInteraction } from './wheel-zoom.ts'

/**
 * The bundled national outline (with Hoàng Sa and Trường Sa and the provinces' names); tile-layers.ts
 * hides it where the basemap's own tiles take over. Read when first drawn: most views open inside the
 * data, where it never is.
 */
export function createNationalLayer() {
  const source: VectorSource = new VectorSource({
    loader: () => source.addFeatures(new GeoJSON().readFeatures(vietnamOutline, { featureProjection: 'EPSG:3857' })),
  })
  return new VectorLayer({
    source,
    declutter: 'national',
    zIndex: 1,
    properties: { name: 'national' },
  })
}

/** The device's pixel ratio, capped where drawing more pixels costs more than it shows (see mapConfig). */
export function mapPixelRatio(device = globalThis.devicePixelRatio || 1): number {
  return Math.min(device, mapConfig.maxPixelRatio)
}

/**
 * The OpenLayers map itself: the view, the controls and the interactions (keyboard on the map element,
 * which follows the map when it moves to another element; the app's own wheel zoom; no rotation).
 * `current` is how the wheel zoom finds the map, null once destroyed.
 */
export function createBaseMap(
  target: HTMLElement,
  start: LatLngZoom,
  reduced: boolean,
  layers: BaseLayer[],
  current: () => OlMap | null,
) {
  const view = new View({
    center: fromLonLat([start.lng, start.lat]),
    zoom: start.zoom,
    maxZoom: mapConfig.viewMaxZoom,
    minZoom: 4,
    enableRotation: false,
  })
  const map = new OlMap({
    target,
    view,
    pixelRatio: mapPixelRatio(),
    controls: [
      new Attribution({ collapsible: true, collapsed: true, tipLabel: 'Nguồn dữ liệu bản đồ' }),
      new ScaleLine({ units: 'metric', minWidth: 72 }),
    ],
    interactions: defaultInteractions({
      keyboard: false,
      mouseWheelZoom: false,
      altShiftDragRotate: false,
      pinchRotate: false,
      zoomDuration: reduced ? 0 : 250,
    }).extend([
      new KeyboardPan({ pixelDelta: mapConfig.keyboardPanPx, duration: reduced ? 0 : 100 }),
      new KeyboardZoom({ duration: reduced ? 0 : 250 }),
      wheelZoomInteraction(current),
    ]),
    layers,
  })
  return { map, view }
}
